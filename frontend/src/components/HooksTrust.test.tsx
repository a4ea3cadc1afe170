import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { TrustBackend, PendingTrust } from "../bridge/agents";
import type { WaitingHookFile } from "../bridge/hooksTrust";
import { HooksTrust } from "./HooksTrust";

afterEach(cleanup);

const waiting: PendingTrust<WaitingHookFile> = {
  hash: "h1",
  files: [
    { path: ".gatehouse/hooks.json", commands: ["PreToolUse [Bash]: $CLAUDE_PROJECT_DIR/.hooks/no-rm.sh", "SessionStart: echo hello"] },
    { path: ".hooks/no-rm.sh" },
    { path: ".gatehouse/agents/guard.md", agent: "guard", commands: ["PreToolUse [Bash]: ./.hooks/mark.sh"] },
    { path: "tools/lint", error: "tools/lint is symlink: a hook's script is trusted only as a regular file, never through a link" },
  ],
};

describe("HooksTrust", () => {
  it("lists every hook's command and every script, and Trust records the shown content", async () => {
    let i = 0;
    const b: TrustBackend<WaitingHookFile> = {
      pending: vi.fn(async () => (i ? null : waiting)),
      trust: vi.fn(async () => {
        i++;
      }),
    };
    render(<HooksTrust backend={b} />);
    const prompt = await screen.findByRole("alert", { name: "Workspace hooks waiting for trust" });
    const file = within(prompt).getByLabelText("Hooks file .gatehouse/hooks.json");
    expect(file.textContent).toContain("PreToolUse [Bash]: $CLAUDE_PROJECT_DIR/.hooks/no-rm.sh");
    expect(file.textContent).toContain("SessionStart: echo hello");
    expect(within(prompt).getByLabelText("Hooks file .hooks/no-rm.sh")).toBeTruthy();
    const agent = within(prompt).getByLabelText("Hooks file .gatehouse/agents/guard.md").textContent;
    expect(agent).toContain("agent guard");
    expect(agent).toContain("PreToolUse [Bash]: ./.hooks/mark.sh");
    expect(within(prompt).getByLabelText("Hooks file tools/lint").textContent).toContain("symlink");
    fireEvent.click(within(prompt).getByRole("button", { name: /^Trust/ }));
    await waitFor(() => expect(b.trust).toHaveBeenCalledWith("h1"));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });
});
