import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { AgentsTrustBackend, PendingAgents } from "../bridge/agents";
import { AgentsTrust } from "./AgentsTrust";

afterEach(cleanup);

const first: PendingAgents = {
  hash: "h1",
  files: [
    { path: ".gatehouse/agents/notes.txt", error: "not a definition (only .gatehouse/agents/*.md are read)" },
    { path: ".gatehouse/agents/reviewer.md", definition: { name: "reviewer", description: "Reviews a diff.", tools: ["read_file", "grep"], source: ".gatehouse/agents/reviewer.md" } },
    { path: ".gatehouse/agents/fixer.md", definition: { name: "fixer", description: "Fixes things.", model: "small", source: ".gatehouse/agents/fixer.md" } },
  ],
};

function fake(states: (PendingAgents | null)[]) {
  let i = 0;
  const b: AgentsTrustBackend = {
    pending: vi.fn(async () => states[Math.min(i, states.length - 1)]),
    trust: vi.fn(async () => {
      i++;
    }),
  };
  return b;
}

describe("AgentsTrust", () => {
  it("lists each file's agent, description and tools, and Trust records the shown content", async () => {
    const b = fake([first, null]);
    const onTrusted = vi.fn();
    render(<AgentsTrust backend={b} onTrusted={onTrusted} />);
    const prompt = await screen.findByRole("alert", { name: "Workspace agents waiting for trust" });
    const reviewer = within(prompt).getByLabelText("Agent file .gatehouse/agents/reviewer.md");
    expect(reviewer.textContent).toContain("reviewer: Reviews a diff.");
    expect(reviewer.textContent).toContain("Tools: read_file, grep");
    const fixer = within(prompt).getByLabelText("Agent file .gatehouse/agents/fixer.md");
    expect(fixer.textContent).toContain("Tools: every tool this session has");
    expect(fixer.textContent).toContain("model small");
    expect(within(prompt).getByLabelText("Agent file .gatehouse/agents/notes.txt").textContent).toContain("not a definition");
    fireEvent.click(within(prompt).getByRole("button", { name: "Trust" }));
    await waitFor(() => expect(screen.queryByRole("alert", { name: "Workspace agents waiting for trust" })).toBeNull());
    expect(b.trust).toHaveBeenCalledWith("h1");
    expect(onTrusted).toHaveBeenCalled();
  });

  it("Not now hides it until the content changes, then asks again", async () => {
    const changed: PendingAgents = { hash: "h2", files: [{ path: ".gatehouse/agents/reviewer.md", definition: { name: "reviewer", description: "Now writes.", tools: ["write_file"], source: ".gatehouse/agents/reviewer.md" } }] };
    let now: PendingAgents = first;
    const b: AgentsTrustBackend = { pending: vi.fn(async () => now), trust: vi.fn(async () => {}) };
    const { rerender } = render(<AgentsTrust backend={b} refresh={1} />);
    fireEvent.click(await screen.findByRole("button", { name: "Not now" }));
    expect(screen.queryByRole("alert", { name: "Workspace agents waiting for trust" })).toBeNull();
    rerender(<AgentsTrust backend={b} refresh={2} />);
    await waitFor(() => expect(b.pending).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole("alert", { name: "Workspace agents waiting for trust" })).toBeNull();
    now = changed;
    fireEvent.focus(window);
    const prompt = await screen.findByRole("alert", { name: "Workspace agents waiting for trust" });
    expect(prompt.textContent).toContain("Tools: write_file");
    expect(b.trust).not.toHaveBeenCalled();
  });

  it("says so when the files changed before Trust, and shows what is there now", async () => {
    let now: PendingAgents = first;
    const b: AgentsTrustBackend = {
      pending: vi.fn(async () => now),
      trust: vi.fn(async () => {
        now = { ...first, hash: "h3" };
        throw new Error("the workspace's agent definitions changed since they were shown; look at them again");
      }),
    };
    render(<AgentsTrust backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Trust" }));
    expect((await screen.findByText(/changed since they were shown/)).textContent).toContain("look at them again");
    await waitFor(() => expect(b.pending).toHaveBeenCalledTimes(2));
  });
});
