import { describe, expect, it } from "vitest";
import type { ProcessInfo } from "../bridge/processes";
import { elapsed, formatDuration, merge, statusIcon, statusKind, statusText, upsert } from "./list";

const p = (id: string, over: Partial<ProcessInfo> = {}): ProcessInfo => ({
  processId: id, pid: 1, command: `cmd ${id}`, cwd: "/w", status: "running", startedAtMs: 1000, ...over,
});

describe("process list", () => {
  it("keeps processes in start order and replaces by id", () => {
    let list = upsert([], p("p2", { startedAtMs: 2000 }));
    list = upsert(list, p("p1", { startedAtMs: 1000 }));
    list = upsert(list, p("p2", { startedAtMs: 2000, status: "exited", exitCode: 0 }));
    expect(list.map((x) => [x.processId, x.status])).toEqual([["p1", "running"], ["p2", "exited"]]);
  });

  it("orders p10 after p2 when they started in the same millisecond", () => {
    const list = upsert(upsert([], p("p10")), p("p2"));
    expect(list.map((x) => x.processId)).toEqual(["p2", "p10"]);
  });

  it("keeps an exit it heard of when a fetched list still says running", () => {
    const current = [p("p1", { status: "exited", exitCode: 1 })];
    const merged = merge(current, [p("p1"), p("p2")]);
    expect(merged.map((x) => x.status)).toEqual(["exited", "running"]);
  });

  it("names each status in words and with an icon", () => {
    const cases: Array<[Partial<ProcessInfo>, string, string, string]> = [
      [{ status: "running" }, "running", "running", "●"],
      [{ status: "exited", exitCode: 0 }, "ok", "exited, exit 0", "✓"],
      [{ status: "exited", exitCode: 2 }, "failed", "failed, exit 2", "✗"],
      [{ status: "stopped", exitCode: 143 }, "stopped", "stopped, exit 143", "■"],
    ];
    for (const [over, kind, text, icon] of cases) {
      const info = p("p1", over);
      expect([statusKind(info), statusText(info), statusIcon(info)]).toEqual([kind, text, icon]);
    }
  });

  it("shows uptime while running and duration once ended", () => {
    expect(elapsed(p("p1", { startedAtMs: 0 }), 65_000)).toBe("1m 05s");
    expect(elapsed(p("p1", { startedAtMs: 0, status: "exited", endedAtMs: 3_500 }), 999_999)).toBe("3s");
    expect(formatDuration(3_725_000)).toBe("1h 02m");
    expect(formatDuration(-5)).toBe("0s");
  });
});
