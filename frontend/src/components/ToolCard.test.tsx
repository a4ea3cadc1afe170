import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { TranscriptItem } from "../bridge";
import { ToolCard } from "./ToolCard";
import { toolTarget, toolSummary, formatDuration } from "./toolSummary";

afterEach(cleanup);

const base = { kind: "tool", id: "c1", turnId: "t1" } as const;

describe("ToolCard", () => {
  it("shows a running call with a spinner and its elapsed time", () => {
    const it: TranscriptItem = { ...base, tool: "bash", args: { action: "exec", command: "npm test" }, running: true };
    render(<ToolCard item={it} />);
    const card = screen.getByRole("group", { name: "bash npm test, running" });
    expect(card.querySelector(".spinner")).not.toBeNull();
    expect(screen.getByLabelText(/running for \d+ ms/)).toBeTruthy();
  });

  it("is one line when done and expands to the read_file excerpt and the args", () => {
    const it: TranscriptItem = {
      ...base, tool: "read_file", args: { path: "README.md" }, running: false, isError: false, durationMs: 1234,
      result: { path: "README.md", content: "# Hello\nworld\n", startLine: 1, endLine: 2, totalLines: 2, truncated: false },
    };
    render(<ToolCard item={it} />);
    const line = screen.getByRole("button", { expanded: false });
    expect(line.textContent).toContain("read_file");
    expect(line.textContent).toContain("README.md");
    expect(line.textContent).toContain("lines 1–2 of 2");
    expect(line.textContent).toContain("1.2 s");
    expect(screen.queryByLabelText("Excerpt of README.md")).toBeNull();
    fireEvent.click(line);
    expect(screen.getByLabelText("Excerpt of README.md").textContent).toContain("# Hello");
    expect(screen.getByText("Arguments")).toBeTruthy();
  });

  it("shows an error in red words without expanding", () => {
    const it: TranscriptItem = {
      ...base, tool: "read_file", args: { path: "nope.txt" }, running: false, isError: true, durationMs: 2,
      result: { ok: false, error: { code: "not_found", message: "nope.txt does not exist" } },
    };
    render(<ToolCard item={it} />);
    expect(screen.getByRole("group", { name: "read_file nope.txt, failed" })).toBeTruthy();
    expect(screen.getByText("nope.txt does not exist").className).toBe("tool-error");
  });

  it("shows an apply_patch result in the diff view", () => {
    const it: TranscriptItem = {
      ...base, tool: "apply_patch", args: { patch: "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch" },
      running: false, isError: false, durationMs: 5,
      result: { fileChanges: [{ path: "a.go", operation: "update", linesAdded: 1, linesRemoved: 1, diff: "@@ -1 +1 @@\n-x\n+y\n" }] },
    };
    render(<ToolCard item={it} />);
    const line = screen.getByRole("button", { expanded: false });
    expect(line.textContent).toContain("a.go");
    expect(line.textContent).toContain("1 file +1 −1");
    fireEvent.click(line);
    const diff = screen.getByRole("group", { name: "Diff of a.go" });
    expect(diff.querySelector(".diff-add .diff-code")?.textContent).toBe("y");
    expect(diff.querySelector(".diff-del .diff-code")?.textContent).toBe("x");
  });
});

describe("tool summaries", () => {
  it("names the target and result in a few words", () => {
    expect(toolTarget("bash", { action: "start", command: "npm run dev" })).toBe("start: npm run dev");
    expect(toolTarget("bash", { action: "logs", processId: "p1" })).toBe("logs p1");
    expect(toolTarget("grep", { pattern: "TODO", path: "src" })).toBe('src "TODO"');
    expect(toolSummary("bash", { exitCode: 1 })).toBe("exit 1");
    expect(toolSummary("bash", { timedOut: true, exitCode: -1 })).toBe("timed out");
    expect(formatDuration(999)).toBe("999 ms");
    expect(formatDuration(61_000)).toBe("1 min 1 s");
  });
});
