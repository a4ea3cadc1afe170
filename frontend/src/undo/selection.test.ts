import { describe, expect, it } from "vitest";
import type { UndoFile } from "../bridge";
import { allUndoTicked, asPreview, undoSelection, undoWords, unitLabel } from "./selection";

const file = (path: string, over: Partial<UndoFile> = {}): UndoFile => ({
  path, by: ["tool"], state: "restore", operation: "update", added: 1, removed: 1,
  turnDiff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old\n+new\n`, undoDiff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-new\n+old\n`,
  prior: "old\n", now: "new\n", ...over,
});
const hunky = file("a.txt", {
  hunks: [
    { id: "a.txt#1", oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, diff: "@@ -1 +1 @@\n-A\n+a" },
    { id: "a.txt#2", oldStart: 9, oldLines: 1, newStart: 9, newLines: 1, diff: "@@ -9 +9 @@\n-B\n+b" },
  ],
});

describe("undo selection", () => {
  it("opens with every undoable file and hunk ticked, and sends them whole", () => {
    const files = [hunky, file("w.txt"), file("gen.txt", { state: "not-restorable", note: "changed by a command: cannot be restored" })];
    const t = allUndoTicked(files);
    expect([...t].sort()).toEqual(["a.txt#1", "a.txt#2", "w.txt"]);
    expect(undoSelection(files, t, {})).toEqual({ files: ["a.txt", "w.txt"], hunks: [], choices: {} });
  });

  it("sends one hunk of a file and leaves out an unticked file", () => {
    const t = new Set(["a.txt#2"]);
    expect(undoSelection([hunky, file("w.txt")], t, {})).toEqual({ files: [], hunks: ["a.txt#2"], choices: {} });
    expect(undoSelection([hunky], new Set(), {})).toBeNull();
  });

  it("keeps a file changed since unless restore is chosen", () => {
    const since = file("c.txt", { state: "changed-since" });
    const t = allUndoTicked([since]);
    expect(undoSelection([since], t, {})?.choices).toEqual({ "c.txt": "keep" });
    expect(undoSelection([since], t, { "c.txt": "restore" })?.choices).toEqual({ "c.txt": "restore" });
  });

  it("shows the turn's diff or the undo's", () => {
    const created = file("n.txt", { operation: "delete" });
    expect(asPreview(created, "turn")).toMatchObject({ operation: "add", diff: created.turnDiff, added: 1, removed: 1 });
    expect(asPreview(hunky, "undo")).toMatchObject({ operation: "update", diff: hunky.undoDiff, hunks: hunky.hunks, newContent: "old\n" });
  });

  it("says what an undo did", () => {
    expect(unitLabel("abc-t2")).toBe("turn 2");
    expect(unitLabel("undo-3")).toBe("undo 3");
    expect(undoWords({ unit: "undo-1", of: "abc-t2", restored: ["a.txt"], skipped: { "c.txt": "changed since: kept as it is" } }, unitLabel))
      .toBe("Undid turn 2: restored a.txt; left c.txt (changed since: kept as it is)");
  });
});
