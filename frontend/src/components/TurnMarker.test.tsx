import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../bridge";
import { stopWords } from "./TurnMarker";

const stop = (extra: Partial<TranscriptItem>): TranscriptItem => ({ kind: "stop", turnId: "t1", ...extra }) as TranscriptItem;

describe("stopWords", () => {
  it("names the rejected tool and the user's note", () => {
    expect(stopWords(stop({ reason: "blocked_by_approval", blocked: { callId: "c1", tool: "apply_patch", note: "keep it short" } }))).toBe(
      "blocked: you rejected apply_patch — note: keep it short",
    );
    expect(stopWords(stop({ reason: "blocked_by_approval", blocked: { callId: "c1", tool: "bash" } }))).toBe("blocked: you rejected bash");
  });
  it("words the other reasons", () => {
    expect(stopWords(stop({ reason: "blocked_by_approval" }))).toBe("blocked: you rejected a tool call");
    expect(stopWords(stop({ reason: "cancelled" }))).toBe("cancelled by you");
    expect(stopWords(stop({ reason: "error", errorKind: "unreachable" }))).toBe("stopped by an error");
  });
  it("says a turn was interrupted when Gatehouse closed in the middle of it", () => {
    expect(stopWords(stop({ reason: "error", errorKind: "interrupted" }))).toBe("interrupted: Gatehouse closed before the turn ended");
  });
});
