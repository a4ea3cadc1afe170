import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HooksSection } from "./HooksSection";
import type { ClaudeImport, HooksBackend, HooksView } from "../../bridge/hooks";
import type { SettingsDeps } from "./sections";

afterEach(cleanup);

const view: HooksView = {
  userFile: "/home/u/.config/gatehouse/hooks.json", claudeFile: "/home/u/.claude/settings.json", errors: [],
  hooks: [
    { id: "h1", event: "PreToolUse", matcher: "Bash", command: "./no-rm.sh", timeoutSec: 30, failsClosed: true, source: "user", file: "", enabled: true },
    { id: "h2", event: "Stop", matcher: "", command: "./ws-stop.sh", timeoutSec: 10, failsClosed: false, source: "workspace", file: "", enabled: true },
    { id: "h3", event: "SubagentStop", matcher: "", command: "./guard-stop.sh", timeoutSec: 30, failsClosed: false, source: "agent", agent: "guard",
      confined: true, file: "", enabled: true },
    { id: "h4", event: "SubagentStop", matcher: "", command: "./mine-stop.sh", timeoutSec: 30, failsClosed: false, source: "agent", agent: "mine",
      file: "", enabled: true },
  ],
};

const preview: ClaudeImport = {
  from: "/home/u/.claude/settings.json", into: view.userFile,
  candidates: [
    { key: "k1", event: "PreToolUse", matcher: "Bash", command: "./no-rm.sh", duplicate: true },
    { key: "k2", event: "PreToolUse", matcher: "Bash", command: "exit 1", failsClosed: true },
    { key: "k3", event: "PostToolUse", matcher: "Write", command: "npx prettier --write" },
    { key: "k4", event: "PermissionRequest", matcher: "", command: "true", skip: "Gatehouse does not run PermissionRequest hooks" },
  ],
};

function show(b: HooksBackend) {
  const deps = { backend: {} as SettingsDeps["backend"], hooks: b } as SettingsDeps;
  render(<HooksSection deps={deps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
}

describe("HooksSection", () => {
  it("lists hooks by event with their source, turns one off, and tests one of yours", async () => {
    const setOn = vi.fn((id: string, on: boolean) => Promise.resolve({ ...view, hooks: view.hooks!.map((h) => (h.id === id ? { ...h, enabled: on } : h)) }));
    const test = vi.fn(() => Promise.resolve({ name: "./no-rm.sh", event: "PreToolUse", source: "user", toolName: "Bash", verdict: "deny", decision: "deny",
      reason: "no", exitCode: 2, durationMs: 12, stderr: "no\n" }));
    show({ list: () => Promise.resolve(view), setOn, test, importPreview: vi.fn(), importHooks: vi.fn() });
    const pre = await screen.findByRole("list", { name: "PreToolUse hooks" });
    expect(pre.textContent).toContain("matcher Bash");
    expect(pre.textContent).toContain("a failure blocks");
    const stop = screen.getByRole("list", { name: "Stop hooks" });
    expect(stop.textContent).toContain("the workspace's (runs confined, once you trust it)");
    expect(within(stop).queryByRole("button", { name: /Test/ })).toBeNull();
    const sub = screen.getByRole("list", { name: "SubagentStop hooks" });
    const [guard, mine] = within(sub).getAllByRole("listitem");
    expect(guard.textContent).toContain("agent guard, for its subagents only (the workspace's definition: runs confined, once you trust it)");
    expect(within(guard).queryByRole("button", { name: /Test/ })).toBeNull();
    expect(mine.textContent).toContain("agent mine, for its subagents only (your definition)");
    expect(within(mine).getByRole("button", { name: "Test ./mine-stop.sh" })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "./no-rm.sh on" }));
    await waitFor(() => expect(setOn).toHaveBeenCalledWith("h1", false));
    await waitFor(() => expect((screen.getByRole("checkbox", { name: "./no-rm.sh on" }) as HTMLInputElement).checked).toBe(false));
    fireEvent.click(screen.getByRole("button", { name: "Test ./no-rm.sh" }));
    const result = await screen.findByRole("status", { name: "Test of ./no-rm.sh" });
    expect(result.textContent).toContain("deny — no · exit code 2 · 12 ms");
    expect(screen.getByLabelText("Standard error of ./no-rm.sh").textContent).toContain("no");
  });

  it("imports from Claude Code: shows each command, marks what would now block, and writes the ticked ones", async () => {
    const importPreview = vi.fn((_: string, check: boolean) => Promise.resolve(check
      ? { ...preview, candidates: preview.candidates!.map((c) => (c.key === "k2" ? { ...c, wouldBlock: "exited with 1 on a sample call; Claude Code would go on, Gatehouse blocks" } : c)) }
      : preview));
    const importHooks = vi.fn(() => Promise.resolve(view));
    show({ list: () => Promise.resolve(view), setOn: vi.fn(), test: vi.fn(), importPreview, importHooks });
    fireEvent.click(await screen.findByRole("button", { name: "Import from Claude Code…" }));
    const region = screen.getByRole("region", { name: "Import from Claude Code" });
    fireEvent.click(within(region).getByRole("button", { name: "Read" }));
    const list = await within(region).findByRole("list", { name: "Hooks to import" });
    expect(list.textContent).toContain("Already in your hooks");
    expect(list.textContent).toContain("Cannot be imported: Gatehouse does not run PermissionRequest hooks");
    expect((within(list).getByRole("checkbox", { name: "Import ./no-rm.sh" }) as HTMLInputElement).disabled).toBe(true);
    expect(importPreview).toHaveBeenCalledWith("/home/u/.claude/settings.json", false);
    fireEvent.click(within(region).getByRole("button", { name: "Run the blocking ones on a sample call" }));
    await waitFor(() => expect(list.textContent).toContain("Would now BLOCK: exited with 1 on a sample call"));
    fireEvent.click(within(list).getByRole("checkbox", { name: /Let calls go on when it fails/ }));
    fireEvent.click(within(region).getByRole("button", { name: "Import 2 hooks" }));
    await waitFor(() => expect(importHooks).toHaveBeenCalledWith("/home/u/.claude/settings.json",
      [{ key: "k2", continueOnError: true }, { key: "k3", continueOnError: false }]));
    expect(await screen.findByText(/Imported 2 hooks into \/home\/u\/.config\/gatehouse\/hooks.json/)).toBeTruthy();
  });
});
