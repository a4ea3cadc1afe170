import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { AgentsTrustBackend, TrustedFolder, TrustedFoldersBackend } from "../bridge/agents";
import { TrustedFolders } from "./TrustedFolders";
import { AgentsTrust } from "./AgentsTrust";

afterEach(cleanup);

describe("TrustedFolders", () => {
  it("lists each trusted folder with what it trusts, and Revoke forgets it", async () => {
    let folders: TrustedFolder[] = [
      { folder: "/w/a", kinds: [{ kind: "agents", at: "" }, { kind: "mcp", at: "" }] },
      { folder: "/w/b", kinds: [{ kind: "mcp", at: "" }] },
    ];
    const b: TrustedFoldersBackend = {
      list: vi.fn(async () => folders),
      revoke: vi.fn(async (f: string) => (folders = folders.filter((x) => x.folder !== f))),
    };
    render(<TrustedFolders backend={b} />);
    const a = await screen.findByLabelText("Trusted folder /w/a");
    expect(a.textContent).toContain("its agent definitions");
    expect(a.textContent).toContain("its MCP servers");
    fireEvent.click(within(a).getByRole("button", { name: "Revoke trust in /w/a" }));
    await waitFor(() => expect(screen.queryByLabelText("Trusted folder /w/a")).toBeNull());
    expect(b.revoke).toHaveBeenCalledWith("/w/a");
    expect(screen.getByLabelText("Trusted folder /w/b")).toBeTruthy();
  });
});

describe("AgentsTrust with refused files only", () => {
  it("shows why each file is refused and offers nothing to trust", async () => {
    const b: AgentsTrustBackend = {
      pending: vi.fn(async () => ({ hash: "", files: [{ path: ".gatehouse/agents/z.md", error: "refused: .gatehouse/agents/z.md is a symbolic link" }] })),
      trust: vi.fn(),
    };
    render(<AgentsTrust backend={b} />);
    const prompt = await screen.findByRole("alert", { name: "Workspace agents waiting for trust" });
    expect(within(prompt).getByLabelText("Agent file .gatehouse/agents/z.md").textContent).toContain("symbolic link");
    expect(within(prompt).queryByRole("button", { name: "Trust" })).toBeNull();
    fireEvent.click(within(prompt).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });
});
