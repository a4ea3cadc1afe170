import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ApprovalRequestedPayload, HookRun, TranscriptItem } from "../bridge";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";
import { ToolCard } from "./ToolCard";

afterEach(cleanup);

const guard: HookRun = {
  name: "python3 ~/.claude/hooks/no-rm.py", event: "PreToolUse", source: "user", toolName: "Bash", decision: "deny",
  verdict: "deny", reason: "rm -rf is not allowed here", exitCode: 2, durationMs: 38, stderr: "rm -rf is not allowed here\n",
};
const quiet: HookRun = { name: "./log-call.sh", event: "PreToolUse", source: "workspace", verdict: "no objection", exitCode: 0, durationMs: 4, stdout: "logged\n" };

const denied: TranscriptItem = {
  kind: "tool", id: "c1", turnId: "t1", tool: "bash", args: { action: "exec", command: "rm -rf build" }, running: false, isError: true,
  durationMs: 40, result: { ok: false, error: { code: "hook_denied", message: `hook "python3 ~/.claude/hooks/no-rm.py": rm -rf is not allowed here` } },
  hooks: [guard, quiet, { ...quiet, name: "./.hooks/mark.sh", source: "agent guard" }],
};

describe("hooks on a tool card", () => {
  it("names the denying hook with its verdict, reason and time without unfolding, and its output on demand", () => {
    render(<ToolCard item={denied} />);
    const list = screen.getByRole("list", { name: "Hooks that ran" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows).toHaveLength(3);
    expect(rows[0].textContent).toContain("python3 ~/.claude/hooks/no-rm.py");
    expect(rows[0].textContent).toContain("(PreToolUse, as Bash)");
    expect(rows[0].textContent).toContain("✗ deny");
    expect(rows[0].textContent).toContain("— rm -rf is not allowed here");
    expect(rows[0].textContent).toContain("38 ms");
    expect(rows[1].textContent).toContain("workspace hook");
    expect(rows[2].textContent).toContain("(PreToolUse, agent guard's hook)");
    expect(screen.queryByLabelText(/Standard error of/)).toBeNull();
    fireEvent.click(within(rows[0]).getByRole("button", { name: "Show what hook python3 ~/.claude/hooks/no-rm.py printed" }));
    expect(rows[0].textContent).toContain("exit code 2");
    expect(screen.getByLabelText("Standard error of python3 ~/.claude/hooks/no-rm.py").textContent).toContain("rm -rf is not allowed here");
  });

  it("shows the hooks unfolded when they arrive with the end of a call that was running", () => {
    const { rerender } = render(<ToolCard item={{ ...denied, running: true, result: undefined, hooks: undefined }} />);
    expect(screen.queryByRole("list", { name: "Hooks that ran" })).toBeNull();
    rerender(<ToolCard item={denied} />);
    expect(screen.getByRole("list", { name: "Hooks that ran" })).toBeTruthy();
  });

  it("folds hooks that all let the call go to one line that unfolds them", () => {
    render(<ToolCard item={{ ...denied, isError: false, result: { exitCode: 0 }, hooks: [quiet, { ...quiet, name: "./other.sh" }] }} />);
    expect(screen.queryByRole("list", { name: "Hooks that ran" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "2 hooks: no objection" }));
    expect(within(screen.getByRole("list", { name: "Hooks that ran" })).getAllByRole("listitem")).toHaveLength(2);
  });

  it("shows a rewritten call as it ran, says which hook rewrote it, and the model's call on demand", () => {
    const item: TranscriptItem = {
      ...denied, isError: false, result: { exitCode: 0 }, args: { action: "exec", command: "npm test" },
      hooks: [{ ...quiet, verdict: "no objection, rewrote the input", rewrote: true }],
      rewrite: { hook: "./log-call.sh", original: { action: "exec", command: "npm test" }, args: { action: "exec", command: "npm test -- --ci" } },
    };
    render(<ToolCard item={item} />);
    expect(screen.getByRole("group").getAttribute("aria-label")).toContain("npm test -- --ci");
    fireEvent.click(screen.getByRole("button", { expanded: false, name: /bash/ }));
    expect(screen.getByRole("note").textContent).toContain("Rewritten by hook ./log-call.sh: what ran is the call as the hook changed it");
    expect(screen.getByText("Arguments, as the hook rewrote them")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Show the model's call" }));
    expect(screen.getByLabelText("The model's call").textContent).not.toContain("--ci");
  });
});

describe("hooks in the approval dialog", () => {
  const request: ApprovalRequestedPayload = {
    approvalId: "a1", callId: "c1", tool: "write_file",
    preview: { kind: "files", summary: "write_file: notes.txt", files: [{ path: "notes.txt", operation: "add", added: 1, removed: 0, oldHash: "absent", oldContent: "", newContent: "from the hook\n", diff: "--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+from the hook\n" }] },
    hooks: [
      { name: "./freeze.sh", event: "PreToolUse", source: "user", toolName: "Write", decision: "ask", verdict: "ask", reason: "release freeze", exitCode: 0, durationMs: 12 },
      { name: "./fmt.sh", event: "PreToolUse", source: "user", verdict: "no objection, rewrote the input", rewrote: true, exitCode: 0, durationMs: 9 },
    ],
    rewrite: { hook: "./fmt.sh", original: { path: "notes.txt", content: "from the model" }, args: { path: "notes.txt", content: "from the hook\n" } },
  };

  it("names the asking hook and its reason, says the call is a hook's rewrite, and lists which hook said what", async () => {
    const b = fakeBackend({ approvalMode: "auto" }, { sessionId: "s1", pendingApprovals: [request], lastSeq: 5 });
    render(<App backend={b} approvals={{ resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}), listRules: vi.fn(async () => []), revokeRule: vi.fn(async () => {}) }} />);
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("auto mode")).toBeTruthy();
    const hooks = within(dialog).getByRole("region", { name: "Your hooks" });
    expect(hooks.textContent).toContain("Hook ./freeze.sh asks you to decide: release freeze");
    expect(within(hooks).getByRole("note").textContent).toContain("Rewritten by hook ./fmt.sh: what you see here is the call as the hook changed it");
    const rows = within(hooks).getAllByRole("listitem");
    expect(rows.map((r) => r.querySelector(".hook-run-verdict")?.textContent)).toEqual(["ask", "no objection, rewrote the input"]);
  });
});
