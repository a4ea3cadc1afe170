import { describe, expect, it } from "vitest";
import { hunkStart, parseDiff, toSplit } from "./diffRows";

const diff = "--- a/f.ts\n+++ b/f.ts\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n@@ -8,3 +8,4 @@\n h\n-y\n-z\n+Y\n+Z\n+W\n";

describe("parseDiff", () => {
  it("gives one row per @@ header and line, numbered in both files", () => {
    const p = parseDiff(diff);
    expect(p.files).toEqual(["f.ts"]);
    expect(p.inline.filter((r) => r.type === "hunk").map((r) => r.type === "hunk" && r.block)).toEqual([0, 1]);
    const first = p.inline[1];
    expect(first).toEqual({ type: "line", line: { kind: "del", old: 1, new: undefined, text: "a" } });
    expect(p.inline[2]).toEqual({ type: "line", line: { kind: "add", old: undefined, new: 1, text: "A" } });
    expect(p.inline[3]).toEqual({ type: "line", line: { kind: "ctx", old: 2, new: 2, text: "b" } });
  });

  it("pairs deletions with the additions after them side by side", () => {
    const rows = parseDiff(diff).split();
    const pairs = rows.filter((r) => r.type === "pair");
    const last = pairs.slice(-3).map((r) => r.type === "pair" && [r.left?.text, r.right?.text]);
    expect(last).toEqual([["y", "Y"], ["z", "Z"], [undefined, "W"]]);
    expect(toSplit([])).toEqual([]);
  });

  it("accepts a bare @@ chunk and names the files of a multi-file diff", () => {
    expect(parseDiff("@@ -1 +1 @@\n-a\n+b\n").inline).toHaveLength(3);
    const two = parseDiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ /dev/null\n@@ -1 +0,0 @@\n-q\n");
    expect(two.files).toEqual(["x", "y"]);
    expect(two.inline[0]).toEqual({ type: "file", name: "x" });
  });

  it("reads where a chunk starts", () => {
    expect(hunkStart("@@ -12,4 +14,5 @@ func x")).toBe("14");
    expect(hunkStart("nonsense")).toBe("");
  });
});
