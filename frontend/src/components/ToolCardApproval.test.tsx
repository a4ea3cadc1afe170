import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Rule, TranscriptItem } from "../bridge";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { ToolCard } from "./ToolCard";

afterEach(cleanup);
beforeAll(giveLayout);

const npmTest: Rule = { id: "rule-2", tool: "bash", commands: [["npm", "test"]], action: "exec", cwd: ".", summary: "run exactly `npm test` (exec, in the workspace root)" };
const other: Rule = { id: "rule-1", tool: "write_file", files: ["a.txt"], summary: "write_file on a.txt" };

const ruleRun: TranscriptItem = {
  kind: "tool", id: "c1", turnId: "t1", tool: "bash", args: { action: "exec", command: "npm test" },
  running: false, isError: false, durationMs: 850, result: { exitCode: 0 }, approval: { by: "rule", rules: [npmTest] },
};

describe("who approved a call", () => {
  it("shows the run time, not the time the dialog waited, and says the wait apart", () => {
    const it: TranscriptItem = {
      kind: "tool", id: "c2", turnId: "t1", tool: "apply_patch", args: { patch: "" }, running: false, isError: false,
      durationMs: 40, waitMs: 4200, approval: { by: "user" }, result: { fileChanges: [] },
    };
    render(<ToolCard item={it} />);
    const time = screen.getByLabelText("took 40 ms");
    expect(time.textContent).toBe("40 ms");
    expect(time.title).toBe("ran 40 ms; waited 4.2 s for your answer");
    expect(screen.queryByText(/ran under/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { expanded: false }));
    expect(screen.getByText("You approved it after 4.2 s.")).toBeTruthy();
  });

  it("says which standing rule, layer and file allowed a call", () => {
    const it: TranscriptItem = { ...ruleRun, id: "c9", approval: { by: "policy", standing: [
      { id: "p-1a2b", decision: "allow", layer: "workspace", file: "/cfg/policy.d/abc.toml", summary: "allow: run `npm test`" }] } };
    render(<ToolCard item={it} />);
    const line = screen.getByText(/allowed by standing rule/);
    expect(line.textContent).toContain("p-1a2b");
    expect(line.textContent).toContain("workspace policy");
    expect(line.textContent).toContain("/cfg/policy.d/abc.toml");
  });

  it("says a denied call was denied by the user's policy, or the project's, and names the rule", () => {
    const deny = { id: "secrets", decision: "deny", layer: "user", file: "/cfg/policy.toml", summary: "deny: read_file on .env" };
    const it: TranscriptItem = { ...ruleRun, id: "c10", isError: true, approval: { by: "policy", standing: [deny] } };
    const { unmount } = render(<ToolCard item={it} />);
    const line = screen.getByText(/denied by your policy, rule:/);
    expect(line.textContent).toContain("deny: read_file on .env");
    expect(line.textContent).toContain("secrets, user policy, /cfg/policy.toml");
    unmount();
    render(<ToolCard item={{ ...it, approval: { by: "policy", standing: [{ ...deny, layer: "project" }] } }} />);
    expect(screen.getByText(/denied by the project's policy, rule:/)).toBeTruthy();
    expect(screen.queryByText(/your policy/)).toBeNull();
  });

  it("says on a grep card how many files the user's policy hid, and nothing when none", () => {
    const grep: TranscriptItem = {
      kind: "tool", id: "g1", turnId: "t1", tool: "grep", args: { pattern: "TOKEN" }, running: false, isError: false, durationMs: 3,
      result: { pattern: "TOKEN", matches: [{ path: "app.txt", line: 1, text: "uses TOKEN" }], filesSearched: 1, truncated: false,
        hiddenByPolicy: 1, hidden: "1 entry was hidden by the user's policy" },
    };
    const { unmount } = render(<ToolCard item={grep} />);
    expect(screen.getByRole("note").textContent).toBe("Policy: 1 entry was hidden by the user's policy");
    unmount();
    render(<ToolCard item={{ ...grep, result: { ...(grep.result as object), hiddenByPolicy: 0, hidden: "" } }} />);
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("labels a call that ran under a session rule, and its link opens the rules at that rule", async () => {
    const b = fakeBackend({}, { sessionId: "s1", lastSeq: 3, transcript: [{ kind: "user", id: "t1", turnId: "t1", text: "test it" }, ruleRun] });
    const approvals = {
      resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}), revokeRule: vi.fn(async () => {}),
      listRules: vi.fn(async () => [other, npmTest]),
    };
    render(<App backend={b} approvals={approvals} />);
    const card = await screen.findByRole("group", { name: "bash npm test, done" });
    expect(card.querySelector(".tool-rule")?.textContent).toBe("ran under your rule: npm test");
    fireEvent.click(within(card).getByRole("button", { name: "Show rule: npm test" }));
    const panel = await screen.findByRole("dialog", { name: "Session rules" });
    await waitFor(() => expect(panel.querySelector("[aria-current]")?.textContent).toContain("run exactly `npm test`"));
    expect(document.activeElement).toBe(panel.querySelector("[aria-current]"));
  });

  it("says so when the rule was revoked since", async () => {
    const b = fakeBackend({}, { sessionId: "s1", lastSeq: 3, transcript: [ruleRun] });
    const approvals = {
      resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}), revokeRule: vi.fn(async () => {}),
      listRules: vi.fn(async () => [other]),
    };
    render(<App backend={b} approvals={approvals} />);
    fireEvent.click(await screen.findByRole("button", { name: "Show rule: npm test" }));
    expect(await screen.findByText("That rule was revoked.")).toBeTruthy();
  });
});
