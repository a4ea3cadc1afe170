import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { GatehouseEvent, ProcessBackend, ProcessInfo } from "../bridge/processes";
import { ProcessPanel } from "./ProcessPanel";

// xterm needs a real layout; a recording stand-in takes its place.
const terms = vi.hoisted(() => [] as any[]);
vi.mock("@xterm/xterm", () => ({
  Terminal: class {
    options: Record<string, unknown>;
    rows = 24;
    cols = 80;
    written: string[] = [];
    onDataHandlers: Array<(d: string) => void> = [];
    cleared = false;
    buffer = { active: { length: 0, getLine: () => undefined } };
    constructor(opts: Record<string, unknown>) {
      this.options = { ...opts };
      terms.push(this);
    }
    loadAddon() {}
    open() {}
    write(data: string, done?: () => void) {
      this.written.push(data);
      done?.();
    }
    onData(h: (d: string) => void) {
      this.onDataHandlers.push(h);
      return { dispose() {} };
    }
    onResize() {
      return { dispose() {} };
    }
    clear() {
      this.cleared = true;
    }
    dispose() {}
  },
}));
vi.mock("@xterm/addon-fit", () => ({ FitAddon: class { fit() {} } }));

beforeAll(() => {
  vi.stubGlobal("ResizeObserver", class { observe() {} disconnect() {} });
  vi.stubGlobal("requestAnimationFrame", (cb: () => void) => setTimeout(cb, 0));
});
afterEach(() => {
  cleanup();
  terms.length = 0;
});

const NOW = 1_000_000;
const proc = (id: string, over: Partial<ProcessInfo> = {}): ProcessInfo => ({
  processId: id, pid: 100, command: `cmd-${id}`, cwd: "/w", status: "running", startedAtMs: NOW - 5_000, ...over,
});

function fakeBackend(initial: ProcessInfo[] = []) {
  const handlers = new Set<(e: GatehouseEvent) => void>();
  let seq = 0;
  const b = {
    list: vi.fn(async () => initial),
    logs: vi.fn(async () => ({ data: "hello\r\n", offset: 0, nextOffset: 7, truncated: false, status: "running" as const })),
    write: vi.fn(async () => {}),
    resize: vi.fn(async () => {}),
    stop: vi.fn(async (id: string) => proc(id, { status: "stopped", exitCode: 143 })),
    restart: vi.fn(async () => proc("p2", { command: "cat" })),
    openURL: vi.fn(),
    copyText: vi.fn(async () => {}),
    setWindowFocused: vi.fn(async () => {}),
    subscribe: vi.fn((on: (e: GatehouseEvent) => void) => {
      handlers.add(on);
      return () => handlers.delete(on);
    }),
  } satisfies ProcessBackend;
  const emit = (type: string, payload: unknown, at = ++seq) => {
    seq = at;
    act(() => handlers.forEach((h) => h({ seq: at, sessionId: "s1", turnId: "", type, payload } as GatehouseEvent)));
  };
  return { b, emit };
}

const renderPanel = (b: ProcessBackend, onStarted = vi.fn()) => render(<ProcessPanel backend={b} now={() => NOW} onProcessStarted={onStarted} />);

describe("ProcessPanel list", () => {
  it("says there are no processes yet", async () => {
    renderPanel(fakeBackend().b);
    expect(await screen.findByText(/No processes yet/)).toBeTruthy();
  });

  it("shows status in words, exit codes, uptime and flags a failure", async () => {
    const { b } = fakeBackend([
      proc("p1", { command: "npm run dev" }),
      proc("p2", { command: "go test", status: "exited", exitCode: 1, endedAtMs: NOW - 2_000 }),
      proc("p3", { command: "make", status: "exited", exitCode: 0, endedAtMs: NOW - 1_000 }),
      proc("p4", { command: "sleep 99", status: "stopped", exitCode: 143, endedAtMs: NOW }),
    ]);
    renderPanel(b);
    const list = await screen.findByRole("list", { name: "Process list" });
    const items = within(list).getAllByRole("button").map((el) => el.textContent);
    expect(items).toEqual([
      "●npm run devrunning · 5s",
      "✗go testfailed, exit 1 · 3s",
      "✓makeexited, exit 0 · 4s",
      "■sleep 99stopped, exit 143 · 5s",
    ]);
    expect(screen.getByRole("status").textContent).toBe("✗ 1 process failed");
    expect(screen.getByRole("button", { name: /^go test/ }).closest("li")!.className).toContain("proc-failed");
  });

  it("says which domains the selected process reached and was refused through the network proxy", async () => {
    const { b, emit } = fakeBackend([proc("p1", { command: "npm install" }), proc("p2", { command: "ls" })]);
    renderPanel(b);
    fireEvent.click(await screen.findByRole("button", { name: /^npm install/ }));
    expect(screen.queryByLabelText("Network of npm install")).toBeNull(); // nothing reached yet
    emit("process.exited", proc("p1", { command: "npm install", status: "exited", exitCode: 1, endedAtMs: NOW,
      network: { reached: ["registry.npmjs.org"], refused: ["evil.test", "x.test"] } }));
    const box = await screen.findByLabelText("Network of npm install");
    expect(box.textContent).toBe("Reachedregistry.npmjs.orgRefusedevil.test, x.test");
    fireEvent.click(screen.getByRole("button", { name: /^ls/ }));
    expect(screen.queryByLabelText(/^Network of/)).toBeNull();
  });

  it("offers a running process's ports and opens them in the system browser", async () => {
    const { b } = fakeBackend([proc("p1", { command: "npm run dev", ports: [5173] })]);
    renderPanel(b);
    fireEvent.click(await screen.findByRole("link", { name: "open http://localhost:5173" }));
    expect(b.openURL).toHaveBeenCalledWith("http://localhost:5173");
  });

  it("reloads the list after a lost event", async () => {
    const { b, emit } = fakeBackend();
    renderPanel(b);
    await waitFor(() => expect(b.list).toHaveBeenCalledTimes(1));
    emit("turn.started", { prompt: "x" }, 1);
    emit("turn.started", { prompt: "y" }, 2);
    expect(b.list).toHaveBeenCalledTimes(1);
    emit("turn.started", { prompt: "z" }, 5); // 3 and 4 were lost
    await waitFor(() => expect(b.list).toHaveBeenCalledTimes(2));
  });

  it("leaves a subagent's events alone: its processes are not this session's, and its session id is no switch", async () => {
    const { b, emit } = fakeBackend([proc("p1", { command: "npm run dev" })]);
    renderPanel(b);
    await screen.findByRole("list", { name: "Process list" });
    emit("turn.started", { prompt: "x" }, 1);
    const child = (seq: number, type: string, payload: unknown) =>
      act(() => (b.subscribe as ReturnType<typeof vi.fn>).mock.calls.forEach(([on]) =>
        on({ seq, sessionId: "child", turnId: "", type, payload, parentCallId: "c1", agent: "general" } as GatehouseEvent)));
    child(2, "turn.started", { prompt: "task" });
    child(3, "process.started", proc("k9", { command: "sleep 300" }));
    emit("turn.started", { prompt: "y" }, 4);
    expect(b.list).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("sleep 300")).toBeNull();
    expect(screen.getByText("npm run dev")).toBeTruthy();
  });

  it("leaves a background tab's processes out, and its events are no session switch", async () => {
    const { b, emit } = fakeBackend([proc("p1", { command: "npm run dev" })]);
    render(<ProcessPanel backend={b} now={() => NOW} background={new Set(["s2"])} />);
    await screen.findByRole("list", { name: "Process list" });
    emit("turn.started", { prompt: "x" }, 1);
    act(() => (b.subscribe as ReturnType<typeof vi.fn>).mock.calls.forEach(([on]) => {
      on({ seq: 2, sessionId: "s2", turnId: "t", type: "turn.started", payload: { prompt: "theirs" } } as GatehouseEvent);
      on({ seq: 3, sessionId: "s2", turnId: "t", type: "process.started", payload: proc("k9", { command: "sleep 300" }) } as GatehouseEvent);
    }));
    emit("turn.started", { prompt: "y" }, 4);
    expect(b.list).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("sleep 300")).toBeNull();
    expect(screen.getByText("npm run dev")).toBeTruthy();
  });

  it("reports the window's focus to the backend", async () => {
    const { b } = fakeBackend();
    renderPanel(b);
    expect(b.setWindowFocused).toHaveBeenCalledTimes(1);
    fireEvent.blur(window);
    expect(b.setWindowFocused).toHaveBeenLastCalledWith(false);
    fireEvent.focus(window);
    expect(b.setWindowFocused).toHaveBeenLastCalledWith(true);
  });
});

describe("ProcessPanel terminal", () => {
  it("selects a process that starts, shows its output live and sends typing to it", async () => {
    const { b, emit } = fakeBackend();
    const onStarted = vi.fn();
    renderPanel(b, onStarted);
    await screen.findByText(/No processes yet/);
    emit("process.started", proc("p1", { command: "cat" }));
    expect(onStarted).toHaveBeenCalled();
    expect(screen.getByRole("button", { name: /^cat/ }).getAttribute("aria-current")).toBe("true");
    await waitFor(() => expect(b.logs).toHaveBeenCalledWith("p1", -(2 << 20), 2 << 20));
    const term = terms[0];
    await waitFor(() => expect(term.written.join("")).toBe("hello\r\n"));

    emit("process.output", { processId: "p1", offset: 7, nextOffset: 11, data: "ping" });
    emit("process.output", { processId: "p2", offset: 0, nextOffset: 5, data: "other" });
    await waitFor(() => expect(term.written.join("")).toBe("hello\r\nping"));

    term.onDataHandlers.forEach((h: (d: string) => void) => h("ping\r"));
    expect(b.write).toHaveBeenCalledWith("p1", "ping\r");
    await waitFor(() => expect(b.resize).toHaveBeenCalledWith("p1", 24, 80));
  });

  it("stops a process, then shows its output read-only", async () => {
    const { b, emit } = fakeBackend([proc("p1", { command: "cat" })]);
    renderPanel(b);
    fireEvent.click(await screen.findByRole("button", { name: /^cat/ }));
    const view = screen.getByRole("region", { name: "Output of cat" });
    fireEvent.click(within(view).getByRole("button", { name: "Stop" }));
    expect(b.stop).toHaveBeenCalledWith("p1");
    emit("process.exited", proc("p1", { command: "cat", status: "stopped", exitCode: 143, endedAtMs: NOW }));
    expect(screen.getByRole("button", { name: /^cat/ }).textContent).toContain("stopped, exit 143");
    await waitFor(() => expect(within(view).queryByRole("button", { name: "Stop" })).toBeNull());
    expect(within(view).getByText(/output is read-only/)).toBeTruthy();
    const term = terms[0];
    expect(term.options.disableStdin).toBe(true);
    term.onDataHandlers.forEach((h: (d: string) => void) => h("x"));
    expect(b.write).not.toHaveBeenCalled();

    // Restart runs the same command again as a new process, and selects it.
    fireEvent.click(within(view).getByRole("button", { name: "Restart" }));
    expect(b.restart).toHaveBeenCalledWith("p1");
    await waitFor(() => expect(screen.getAllByRole("button", { name: /^cat/ })).toHaveLength(2));
    await waitFor(() => expect(within(screen.getByRole("region", { name: "Output of cat" })).getByRole("button", { name: "Stop" })).toBeTruthy());
  });

  it("clears the view and copies the output", async () => {
    const { b } = fakeBackend([proc("p1", { command: "make", status: "exited", exitCode: 0, endedAtMs: NOW })]);
    renderPanel(b);
    fireEvent.click(await screen.findByRole("button", { name: /^make/ }));
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect(terms[0].cleared).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Copy output" }));
    await waitFor(() => expect(b.copyText).toHaveBeenCalled());
    expect(await screen.findByText("Output copied")).toBeTruthy();
  });
});
