import { describe, expect, it } from "vitest";
import type { ApprovalRequestedPayload, FilePreview, Preview } from "../bridge";
import { allTicked, approveTicked, dialogTitle, fileState, reject, ruleText, toggleFile, toggleKey } from "./decision";

const file = (path: string, hunks = 0): FilePreview => ({
  path, operation: "update", added: 1, removed: 1, diff: "", oldHash: "", oldContent: "", newContent: "",
  hunks: Array.from({ length: hunks }, (_, i) => ({ id: `${path}#${i + 1}`, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, diff: "" })),
});
const preview = (files: FilePreview[], partial = true): Preview => ({ kind: "files", summary: "", files, partial });

describe("decision building", () => {
  const p = preview([file("a.ts", 2), file("b.ts", 1), { ...file("new.ts"), operation: "add" }]);

  it("approves once while everything is ticked", () => {
    expect(approveTicked(p, allTicked(p))).toEqual({ kind: "once" });
  });

  it("names whole files and the hunks of files ticked in part", () => {
    let t = allTicked(p);
    t = toggleKey("a.ts#2", t); // a.ts in part
    t = toggleFile(p.files![2], t); // new.ts out
    expect(fileState(p.files![0], t)).toBe("some");
    expect(approveTicked(p, t)).toEqual({ kind: "partial", files: ["b.ts"], hunks: ["a.ts#1"] });
  });

  it("gives no approval when nothing is ticked, and a file toggle ticks a file in part whole", () => {
    let t = allTicked(p);
    for (const f of p.files!) t = toggleFile(f, t);
    expect(approveTicked(p, t)).toBeNull();
    t = toggleKey("a.ts#1", t);
    t = toggleFile(p.files![0], t);
    expect(fileState(p.files![0], t)).toBe("all");
    expect(approveTicked(p, t)).toEqual({ kind: "partial", files: ["a.ts"] });
  });

  it("approves a call that cannot be split once, whatever is ticked", () => {
    expect(approveTicked(preview([file("a.ts")], false), new Set())).toEqual({ kind: "once" });
  });

  it("sends a note with a reject only when there is one", () => {
    expect(reject("  ")).toEqual({ kind: "reject" });
    expect(reject(" use tabs ")).toEqual({ kind: "reject", note: "use tabs" });
  });

  it("says what the call wants and the rule a session answer creates", () => {
    const r: ApprovalRequestedPayload = { approvalId: "1", callId: "c", tool: "apply_patch", preview: p, rule: { tool: "apply_patch", summary: "apply_patch on a.ts, b.ts" } };
    expect(dialogTitle(r)).toBe("apply_patch wants to change 3 files");
    expect(ruleText(r)).toBe("rule: apply_patch on a.ts, b.ts (this session)");
    expect(ruleText({ ...r, rule: undefined })).toBe("");
    expect(dialogTitle({ ...r, preview: preview([{ ...file("x.go"), operation: "delete" }]) })).toBe("apply_patch wants to delete x.go");
    expect(dialogTitle({ ...r, preview: preview([{ ...file("x.go"), operation: "add", replaces: true }]) })).toBe("apply_patch wants to replace x.go");
    expect(dialogTitle({ ...r, preview: preview([{ ...file("x.go"), operation: "add" }]) })).toBe("apply_patch wants to create x.go");
    expect(dialogTitle({ ...r, tool: "bash", preview: { kind: "command", summary: "", command: { action: "start" } } })).toBe("bash wants to start a process");
  });
});
