import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ApprovalRequestedPayload, Rule } from "../bridge";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";

afterEach(cleanup);

function approvals(rules: Rule[] = []) {
  return {
    resolve: vi.fn(async () => {}),
    repreview: vi.fn(async () => {}),
    listRules: vi.fn(async () => rules),
    revokeRule: vi.fn(async () => {}),
  };
}

const patchRequest = (id: string): ApprovalRequestedPayload => ({
  approvalId: id, callId: "c" + id, tool: "apply_patch",
  rule: { tool: "apply_patch", files: ["a.ts", "b.ts"], summary: "apply_patch on a.ts, b.ts" },
  preview: {
    kind: "files", summary: "apply_patch: 2 files, +2 −2", partial: true,
    files: ["a.ts", "b.ts"].map((path) => ({
      path, operation: "update", added: 1, removed: 1, oldHash: "", oldContent: "", newContent: "",
      diff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old\n+new\n`,
      hunks: [{ id: `${path}#1`, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, diff: "@@ -1 +1 @@\n-old\n+new\n" }],
    })),
  },
});

const bashRequest: ApprovalRequestedPayload = {
  approvalId: "b1", callId: "cb", tool: "bash",
  preview: { kind: "command", summary: "bash exec", command: { action: "exec", command: "ls && rm -rf x", cwd: "/w",
    segments: [{ text: "ls", args: ["ls"] }, { text: "rm -rf x", args: ["rm", "-rf", "x"], deletes: true }] } },
};

async function open(pending: ApprovalRequestedPayload[]) {
  const b = fakeBackend({}, { sessionId: "s1", pendingApprovals: pending, lastSeq: 5 });
  const a = approvals();
  render(<App backend={b} approvals={a} />);
  const dialog = await screen.findByRole("dialog");
  return { b, a, dialog };
}

describe("ApprovalDialog", () => {
  it("says before approval that a change cannot be restored", async () => {
    const r = patchRequest("1");
    r.preview.files![1].unrestorable = "cannot be restored: the file is larger than the undo store keeps";
    const { dialog } = await open([r]);
    const b = within(dialog).getByRole("button", { name: /^b\.ts/ });
    expect(b.textContent).toContain("cannot be restored");
    expect(within(dialog).getByRole("button", { name: /^a\.ts/ }).textContent).not.toContain("cannot be restored");
    fireEvent.click(b);
    expect(within(dialog).getByRole("note").textContent).toContain("larger than the undo store keeps");
  });

  it("opens on the file list, one request at a time, and shows the mode", async () => {
    const { dialog } = await open([patchRequest("1"), patchRequest("2")]);
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(screen.getByRole("dialog", { name: "apply_patch wants to change 2 files" })).toBe(dialog);
    expect(within(dialog).getByText("1 of 2")).toBeTruthy();
    expect(within(dialog).getByText("safe mode")).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole("checkbox", { name: "Apply a.ts" })));
  });

  it("makes the page behind inert while open, and live again once answered", async () => {
    const { b, dialog } = await open([patchRequest("1")]);
    const header = document.querySelector(".header")!;
    expect(header.closest("[inert]")).not.toBeNull();
    expect(screen.getByRole("button", { name: "Settings" }).closest("[inert]")).not.toBeNull();
    expect(dialog.closest("[inert]")).toBeNull();
    act(() => b.emit("approval.resolved", { approvalId: "1", decision: { kind: "once" } }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(header.closest("[inert]")).toBeNull();
  });

  it("lists the files as a grid of rows, the file in view selected, with a hint for the arrow keys", async () => {
    const { dialog } = await open([patchRequest("1")]);
    const grid = within(dialog).getByRole("grid", { name: "Files" });
    const rows = within(grid).getAllByRole("row");
    expect(rows).toHaveLength(2);
    expect(rows[0].getAttribute("aria-selected")).toBe("true");
    expect(rows[1].getAttribute("aria-selected")).toBe("false");
    expect(within(rows[0]).getAllByRole("gridcell")).toHaveLength(2);
    const hint = document.getElementById(grid.getAttribute("aria-describedby")!)!;
    expect(hint.textContent).toBe("↑/↓ other files · Space ticks");
    fireEvent.keyDown(within(rows[0]).getByRole("checkbox"), { key: "ArrowDown" });
    await waitFor(() => expect(rows[1].getAttribute("aria-selected")).toBe("true"));
    await waitFor(() => expect(document.activeElement).toBe(within(rows[1]).getByRole("checkbox")));
  });

  it("approves the ticked files in part, and with everything ticked, once or for the session by keyboard", async () => {
    const { a, dialog } = await open([patchRequest("1")]);
    expect(within(dialog).getByText("rule: apply_patch on a.ts, b.ts (this session)")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "Enter" });
    expect(a.resolve).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "Apply b.ts" }));
    expect(within(dialog).queryByRole("button", { name: "Approve once" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Approve for session" })).toBeNull();
    fireEvent.keyDown(dialog, { key: "Enter", ctrlKey: true });
    expect(a.resolve).toHaveBeenCalledWith("1", { kind: "partial", files: ["a.ts"] });
  });

  it("keeps what was unticked when the page loads the session's snapshot again (same request, new objects)", async () => {
    const req = patchRequest("1");
    const { a, b, dialog } = await open([req]);
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "Apply b.ts" }));
    b.snapshot.mockImplementation(async () => ({
      sessionId: "s1", turnId: "", transcript: [], processes: [], lastSeq: 6, pendingApprovals: [structuredClone(req)],
    }));
    b.lose();
    await act(async () => b.emit("message.delta", { messageId: "m1", text: "x" }));
    await waitFor(() => expect(b.snapshot).toHaveBeenCalledTimes(2));
    const again = await screen.findByRole("dialog");
    await waitFor(() => expect((within(again).getByRole("checkbox", { name: "Apply b.ts" }) as HTMLInputElement).checked).toBe(false));
    fireEvent.click(within(again).getByRole("button", { name: "Approve selected" }));
    expect(a.resolve).toHaveBeenCalledWith("1", { kind: "partial", files: ["a.ts"] });
  });

  it("approves a hunk of a file when its other hunks are unticked", async () => {
    const req = patchRequest("1");
    req.preview.files![0].hunks!.push({ id: "a.ts#2", oldStart: 9, oldLines: 1, newStart: 9, newLines: 1, diff: "@@ -9 +9 @@\n-q\n+r\n" });
    const { a, dialog } = await open([req]);
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "Apply hunk 1 of a.ts" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Approve selected" }));
    expect(a.resolve).toHaveBeenCalledWith("1", { kind: "partial", files: ["b.ts"], hunks: ["a.ts#2"] });
  });

  it("Always allow shows the rule and where it is saved before saving, then saves it for the chosen scope", async () => {
    const { a, dialog } = await open([patchRequest("1")]);
    expect(within(dialog).queryByRole("button", { name: "Save rule and approve" })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Always allow…" }));
    const panel = within(dialog).getByRole("group", { name: "Always allow" });
    expect(panel.textContent).toContain("apply_patch on a.ts, b.ts");
    expect(panel.textContent).toContain("this workspace");
    expect(a.resolve).not.toHaveBeenCalled();
    fireEvent.click(within(panel).getByRole("radio", { name: /everywhere/ }));
    fireEvent.click(within(panel).getByRole("button", { name: "Save rule and approve" }));
    expect(a.resolve).toHaveBeenCalledWith("1", { kind: "always", scope: "everywhere" });
  });

  it("Ctrl+Shift+Enter approves for the session", async () => {
    const { a, dialog } = await open([patchRequest("1")]);
    fireEvent.keyDown(dialog, { key: "Enter", ctrlKey: true, shiftKey: true });
    expect(a.resolve).toHaveBeenCalledWith("1", { kind: "session" });
  });

  it("Esc moves focus to Reject without sending; Reject sends the note", async () => {
    const { a, b, dialog } = await open([bashRequest]);
    const steps = within(dialog).getByRole("list", { name: "Steps" });
    expect(within(steps).getAllByRole("listitem")[1].textContent).toContain("deletes files");
    expect(within(dialog).queryByRole("button", { name: "Approve for session" })).toBeNull(); // no rule
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Reject" }));
    expect(a.resolve).not.toHaveBeenCalled();
    expect(b.cancel).not.toHaveBeenCalled();
    fireEvent.input(within(dialog).getByRole("textbox", { name: "Note to the model (optional)" }), { target: { value: "not rm" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(a.resolve).toHaveBeenCalledWith("b1", { kind: "reject", note: "not rm" });
  });

  it("flags a step that writes into .git, and offers no rule for it", async () => {
    const { dialog } = await open([{ ...bashRequest, preview: { kind: "command", summary: "bash exec",
      command: { action: "exec", command: "echo x > .git/commondir", cwd: "/w",
        segments: [{ text: "echo x > .git/commondir", args: ["echo", "x"], writesGit: true }] } } }]);
    const steps = within(dialog).getByRole("list", { name: "Steps" });
    expect(steps.textContent).toContain("writes into .git (can make git run code)");
    expect(within(dialog).queryByRole("button", { name: "Approve for session" })).toBeNull();
  });

  it("offers a confined exec, and only that, to run once unconfined, marked as dangerous", async () => {
    const confined = { ...bashRequest, preview: { ...bashRequest.preview, command: { ...bashRequest.preview.command!, confined: true } } };
    const { a, dialog } = await open([confined]);
    const button = within(dialog).getByRole("button", { name: "Run once, unconfined" });
    expect(button.className).toContain("danger");
    fireEvent.click(button);
    await waitFor(() => expect(a.resolve).toHaveBeenCalledWith("b1", { kind: "once", unconfined: true }));
    cleanup();
    const { dialog: unconfined } = await open([bashRequest]);
    expect(within(unconfined).queryByRole("button", { name: "Run once, unconfined" })).toBeNull();
  });

  it("offers a confined start (a long-running process) to run once unconfined too", async () => {
    const start = { ...bashRequest, preview: { ...bashRequest.preview, summary: "bash start",
      command: { ...bashRequest.preview.command!, action: "start", command: "npm run dev", confined: true } } };
    const { a, dialog } = await open([start]);
    const button = within(dialog).getByRole("button", { name: "Run once, unconfined" });
    expect(button.className).toContain("danger");
    fireEvent.click(button);
    await waitFor(() => expect(a.resolve).toHaveBeenCalledWith("b1", { kind: "once", unconfined: true }));
  });

  it("Ctrl+Enter in the note field rejects with the note, and so does Ctrl+Shift+Enter", async () => {
    for (const shiftKey of [false, true]) {
      const { a, dialog } = await open([patchRequest("1")]);
      const note = within(dialog).getByRole("textbox", { name: "Note to the model (optional)" });
      fireEvent.input(note, { target: { value: "use the helper" } });
      note.focus();
      fireEvent.keyDown(note, { key: "Enter", ctrlKey: true, shiftKey });
      expect(a.resolve).toHaveBeenCalledTimes(1);
      expect(a.resolve).toHaveBeenCalledWith("1", { kind: "reject", note: "use the helper" });
      cleanup();
    }
  });

  it("closes on approval.resolved, then shows the next request", async () => {
    const { b } = await open([patchRequest("1"), patchRequest("2")]);
    act(() => b.emit("approval.resolved", { approvalId: "1", decision: { kind: "reject", note: "the turn was cancelled" } }));
    await waitFor(() => expect(screen.queryByText("1 of 2")).toBeNull());
    act(() => b.emit("approval.resolved", { approvalId: "2", decision: { kind: "once" } }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("a stale preview says which file changed, blocks approving until a re-preview, and still rejects", async () => {
    const { a, b, dialog } = await open([patchRequest("1")]);
    act(() => b.emit("approval.stale", { approvalId: "1", paths: ["a.ts"] }));
    await within(dialog).findByText("⚠ a.ts changed on disk since this preview");
    const once = within(dialog).getByRole("button", { name: "Approve once" }) as HTMLButtonElement;
    const session = within(dialog).getByRole("button", { name: "Approve for session" }) as HTMLButtonElement;
    expect(once.disabled).toBe(true);
    expect(session.disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: "Enter", ctrlKey: true });
    fireEvent.keyDown(dialog, { key: "Enter", ctrlKey: true, shiftKey: true });
    expect(a.resolve).not.toHaveBeenCalled();
    expect((within(dialog).getByRole("button", { name: "Reject" }) as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(within(dialog).getByRole("button", { name: "Re-preview" }));
    expect(a.repreview).toHaveBeenCalledWith("1");
    // The fresh preview comes as approval.requested with the same id.
    const fresh = patchRequest("1");
    fresh.preview.summary = "apply_patch: fresh";
    act(() => b.emit("approval.requested", fresh));
    await within(dialog).findByText("apply_patch: fresh");
    expect(within(dialog).queryByText(/changed on disk since this preview/)).toBeNull();
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
    expect(screen.queryByText("1 of 2")).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Approve once" }));
    expect(a.resolve).toHaveBeenCalledWith("1", { kind: "once" });
  });
});

describe("ApprovalRules", () => {
  it("shows a web_fetch domain rule's exact domain", async () => {
    const summary = "web_fetch any URL on docs.example.com (this exact domain, not its subdomains)";
    const a = approvals([{ id: "r2", tool: "web_fetch", domain: "docs.example.com", summary }]);
    render(<App backend={fakeBackend()} approvals={a} />);
    fireEvent.click(await screen.findByRole("button", { name: "Rules (1)" }));
    const panel = await screen.findByRole("dialog", { name: "Session rules" });
    expect(panel.textContent).toContain("any URL on docs.example.com exactly, not its subdomains");
  });

  it("lists the session's rules and revokes one", async () => {
    const b = fakeBackend();
    const summary = "run exactly `ls -l` (exec, in src/; no other arguments, assignments or redirections but 2>&1 and /dev/null)";
    const a = approvals([{ id: "r1", tool: "bash", commands: [["ls", "-l"]], action: "exec", cwd: "/w/src", summary }]);
    render(<App backend={b} approvals={a} />);
    fireEvent.click(await screen.findByRole("button", { name: "Rules (1)" }));
    const panel = await screen.findByRole("dialog", { name: "Session rules" });
    // The exact scope: the words, the action and the folder.
    expect(panel.textContent).toContain("exactly ls -l · exec · in /w/src");
    fireEvent.click(within(panel).getByRole("button", { name: `Revoke rule: ${summary}` }));
    expect(a.revokeRule).toHaveBeenCalledWith("r1");
  });

  it("names an MCP call's server, tool and description, and its session rule covers that tool", async () => {
    const req: ApprovalRequestedPayload = {
      approvalId: "m1", callId: "cm", tool: "mcp__everything__echo",
      rule: { tool: "mcp__everything__echo", summary: "use mcp__everything__echo (any arguments)" },
      preview: { kind: "args", summary: "everything › echo {}", args: { message: "hi" }, argsText: '{\n  "message": "hi"\n}',
        mcp: { server: "everything", tool: "echo", description: "Echoes back the input" } },
    };
    const { a, dialog } = await open([req]);
    expect(screen.getByRole("dialog", { name: "MCP server everything wants to run echo" })).toBe(dialog);
    const call = dialog.querySelector('[aria-label="MCP call"]');
    expect(call?.textContent).toContain("Servereverything");
    expect(call?.textContent).toContain("Toolecho");
    expect(within(dialog).getByText("Echoes back the input")).toBeTruthy();
    expect(within(dialog).getByRole("group", { name: "Arguments" }).textContent).toContain('"message": "hi"');
    expect(within(dialog).getByText("rule: echo on MCP server everything, any arguments (this session)")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Approve for session" }));
    await waitFor(() => expect(a.resolve).toHaveBeenCalledWith("m1", { kind: "session" }));
  });
  it("shows a web_fetch call's full URL, its domain and that it is new, and offers to allow the domain for the session", async () => {
    const req: ApprovalRequestedPayload = {
      approvalId: "w1", callId: "cw", tool: "web_fetch",
      rule: { tool: "web_fetch", domain: "docs.example.com", summary: "web_fetch any URL on docs.example.com (this exact domain, not its subdomains)" },
      preview: { kind: "args", summary: "web_fetch https://docs.example.com/guide?x=1", args: { url: "https://docs.example.com/guide?x=1" },
        web: { url: "https://docs.example.com/guide?x=1", domain: "docs.example.com", newDomain: true } },
    };
    const { a, dialog } = await open([req]);
    expect(screen.getByRole("dialog", { name: "web_fetch wants to fetch from docs.example.com" })).toBe(dialog);
    const web = dialog.querySelector('[aria-label="Web fetch"]');
    expect(web?.textContent).toContain("URLhttps://docs.example.com/guide?x=1");
    expect(web?.textContent).toContain("Domaindocs.example.com new to this session");
    expect(within(dialog).queryByRole("group", { name: "Arguments" })).toBeNull();
    expect(within(dialog).getByText("rule: web_fetch any URL on docs.example.com, exactly this domain, not its subdomains (this session)")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Allow this domain for the session" }));
    await waitFor(() => expect(a.resolve).toHaveBeenCalledWith("w1", { kind: "session" }));
  });

  it("says when a web_fetch domain was fetched from before, and names the raw URL a GitHub page is fetched as", async () => {
    const req: ApprovalRequestedPayload = {
      approvalId: "w2", callId: "cw2", tool: "web_fetch",
      preview: { kind: "args", summary: "web_fetch", args: {},
        web: { url: "https://github.com/o/r/blob/main/a.md", fetchUrl: "https://raw.githubusercontent.com/o/r/main/a.md", domain: "github.com", newDomain: false } },
    };
    const { dialog } = await open([req]);
    const web = dialog.querySelector('[aria-label="Web fetch"]');
    expect(web?.textContent).toContain("Fetcheshttps://raw.githubusercontent.com/o/r/main/a.md");
    expect(web?.textContent).toContain("fetched from before in this session");
    expect(within(dialog).queryByRole("button", { name: "Allow this domain for the session" })).toBeNull();
  });
});

