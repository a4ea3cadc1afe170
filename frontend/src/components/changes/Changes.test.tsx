import { afterEach, describe, expect, it, vi, type Mock } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { GitBackend, GitView, WorktreeSessions } from "../../bridge/git";
import { Changes } from "./Changes";

afterEach(cleanup);

const diff = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-one\n+ONE\n two\n three\n@@ -10,3 +10,3 @@\n-ten\n+TEN\n x\n y\n";

function view(over: Partial<GitView["changes"]> = {}, trusted = true): GitView {
  return {
    changes: {
      branch: "main", head: "abc1234", upstream: "origin/main", ahead: 2, behind: 1, safe: !trusted, top: "/w",
      staged: [], untracked: ["new.txt"],
      unstaged: [{ path: "a.txt", status: "M", added: 2, removed: 2, diff,
        hunks: [{ header: "@@ -1,3 +1,3 @@", id: "h1" }, { header: "@@ -10,3 +10,3 @@", id: "h2" }] }],
      ...over,
    },
    settings: { trusted, files: [".git/config"], hash: "cfg" },
    lastMessage: "Earlier work",
  };
}

function fakeGit(v: GitView): { [K in keyof GitBackend]: Mock<GitBackend[K]> } {
  return {
    changes: vi.fn(async () => v),
    stageFile: vi.fn(async () => {}),
    unstageFile: vi.fn(async () => {}),
    stageHunk: vi.fn(async () => {}),
    unstageHunk: vi.fn(async () => {}),
    discardHunk: vi.fn(async () => "discard-1"),
    discardFile: vi.fn(async () => "discard-2"),
    commit: vi.fn(async () => ({ hash: "def5678", subject: "Edited" })),
    draftMessage: vi.fn(async () => "Drafted subject\n\nBody."),
    trustSettings: vi.fn(async () => {}),
    commitTrailer: vi.fn(async () => ""),
    setCommitTrailer: vi.fn(async () => {}),
    worktrees: vi.fn(async () => worktrees),
    newWorktree: vi.fn(async (name: string) => ({ name, path: `/w.worktrees/${name}`, branch: `gatehouse/${name}`, base: "main" })),
    openWorktree: vi.fn(async () => {}),
    mergeWorktree: vi.fn(async () => ({ base: "main", commits: ["abc1234 Five"] })),
    endWorktree: vi.fn(async (_d: boolean, confirmed: boolean) => (confirmed ? null : { commits: ["abc1234 Five"], uncommitted: ["b.txt"] })),
    setWorktreeCopy: vi.fn(async () => {}),
  };
}

let worktrees: WorktreeSessions = { main: "/w", current: "", list: [], copy: [".env"] };

describe("Changes", () => {
  it("shows the branch, the files and their hunks, and stages or discards one hunk", async () => {
    const git = fakeGit(view());
    const onUndo = vi.fn();
    render(<Changes git={git} refresh={0} onClose={() => {}} onUndo={onUndo} />);
    const region = await screen.findByRole("region", { name: "Changes" });
    await waitFor(() => expect(within(region).getByLabelText("Branch").textContent).toBe("main ↑2 ↓1 origin/main"));
    fireEvent.click(within(region).getByRole("button", { name: "Stage hunk 2 of a.txt" }));
    await waitFor(() => expect(git.stageHunk).toHaveBeenCalledWith("a.txt", "h2"));
    await waitFor(() => expect(git.changes).toHaveBeenCalledTimes(2));

    fireEvent.click(within(region).getByRole("button", { name: "Discard hunk 1 of a.txt" }));
    await waitFor(() => expect(git.discardHunk).toHaveBeenCalledWith("a.txt", "h1"));
    fireEvent.click(await within(region).findByRole("button", { name: "Undo the discard" }));
    expect(onUndo).toHaveBeenCalledWith("discard-1");
    expect(within(region).getByRole("listitem", { name: "new.txt, untracked" })).toBeTruthy();
  });

  it("shows a changed picture as the picture, and a deleted one or other binary files in words", async () => {
    const bin = (path: string, status: string) => ({ path, status, added: 0, removed: 0, diff: `Binary ${path}`, hunks: [], binary: true });
    const git = fakeGit(view({ unstaged: [bin("ui/logo.png", "M"), bin("old.gif", "D"), bin("app.wasm", "M")] }));
    const image = vi.fn(async (p: string) => `data:image/png;base64,${btoa(p)}`);
    render(<Changes git={git} refresh={0} onClose={() => {}} image={image} />);
    const logo = await screen.findByRole("img", { name: "ui/logo.png" });
    expect(logo.getAttribute("src")).toBe(`data:image/png;base64,${btoa("ui/logo.png")}`);
    expect(image).toHaveBeenCalledTimes(1);
    expect(within(screen.getByRole("listitem", { name: "old.gif, deleted" })).getByText("A binary file: no text diff to show.")).toBeTruthy();
    expect(within(screen.getByRole("listitem", { name: "app.wasm, modified" })).getByText("A binary file: no text diff to show.")).toBeTruthy();
  });

  it("drafts a message with the model for editing, and commits only the edited text", async () => {
    const git = fakeGit(view({ staged: [{ path: "b.txt", status: "A", added: 1, removed: 0, diff: "", hunks: [] }] }));
    render(<Changes git={git} refresh={0} onClose={() => {}} />);
    const box = await screen.findByRole("textbox", { name: "Commit message" });
    fireEvent.click(screen.getByRole("button", { name: "Draft with the model" }));
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe("Drafted subject\n\nBody."));
    expect(git.commit).not.toHaveBeenCalled();
    await waitFor(() => expect((box as HTMLTextAreaElement).disabled).toBe(false));
    fireEvent.input(box, { target: { value: "Edited" } });
    fireEvent.click(screen.getByRole("button", { name: "Commit" }));
    await waitFor(() => expect(git.commit).toHaveBeenCalledWith("Edited", false));
    expect((await screen.findByRole("status")).textContent).toBe("Committed def5678: Edited");
    expect(screen.getByText(/does not pass the approval gate/)).toBeTruthy();
  });

  it("shows a failing hook's output where the commit was", async () => {
    const git = fakeGit(view({ staged: [{ path: "b.txt", status: "A", added: 1, removed: 0, diff: "", hunks: [] }] }));
    git.commit.mockRejectedValueOnce("git commit: lint: b.txt has a problem");
    render(<Changes git={git} refresh={0} onClose={() => {}} />);
    fireEvent.input(await screen.findByRole("textbox", { name: "Commit message" }), { target: { value: "Add b" } });
    fireEvent.click(screen.getByRole("button", { name: "Commit" }));
    expect((await screen.findByRole("alert")).textContent).toContain("lint: b.txt has a problem");
    expect(git.commit).toHaveBeenCalledWith("Add b", false);
  });

  it("an untrusted repository waits for trust before committing", async () => {
    const git = fakeGit(view({ staged: [{ path: "b.txt", status: "A", added: 1, removed: 0, diff: "", hunks: [] }] }, false));
    render(<Changes git={git} refresh={0} onClose={() => {}} />);
    const banner = await screen.findByRole("region", { name: "Git settings not trusted" });
    fireEvent.input(screen.getByRole("textbox", { name: "Commit message" }), { target: { value: "Add b" } });
    expect((screen.getByRole("button", { name: "Commit" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(banner).getByRole("button", { name: "Trust git settings" }));
    await waitFor(() => expect(git.trustSettings).toHaveBeenCalledWith("cfg"));
  });

  it("warns, before trust, of a git config that includes a file in the working tree", async () => {
    const v = view({}, false);
    v.settings = { ...v.settings, files: [".git/config", "dev.gitconfig"], warnings: ["the included file dev.gitconfig is in the working tree: a command or the agent can change it, and that takes trust back"] };
    render(<Changes git={fakeGit(v)} refresh={0} onClose={() => {}} />);
    const banner = await screen.findByRole("region", { name: "Git settings not trusted" });
    expect(within(banner).getByRole("note").textContent).toContain("dev.gitconfig is in the working tree");
  });

  it("shows a worktree session's branch against its base, without buttons", async () => {
    const git = fakeGit(view({ branch: "gatehouse/one", upstream: undefined, unstaged: [], untracked: [],
      against: { base: "main", commits: ["abc1234 Five"], files: [{ path: "a.txt", status: "M", added: 1, removed: 1, diff, hunks: [{ header: "@@ -1,3 +1,3 @@", id: "x" }] }] } }));
    render(<Changes git={git} refresh={0} onClose={() => {}} />);
    const branch = await screen.findByRole("region", { name: "Branch gatehouse/one against main" });
    expect(within(branch).getByText("abc1234 Five")).toBeTruthy();
    expect(within(branch).getByRole("listitem", { name: "a.txt, modified" })).toBeTruthy();
    expect(within(branch).queryByRole("button", { name: /Stage|Discard|Unstage/ })).toBeNull();
  });

  it("starts a worktree session, saying where and why, and switches the window to it", async () => {
    worktrees = { main: "/w", current: "", list: [], copy: [".env"] };
    const git = fakeGit(view());
    const onSwitched = vi.fn();
    render(<Changes git={git} refresh={0} onClose={() => {}} onSwitched={onSwitched} />);
    const name = await screen.findByRole("textbox", { name: "New session in a worktree" });
    fireEvent.input(name, { target: { value: "feat" } });
    expect(screen.getByText(/beside the repository/).textContent).toContain("/w.worktrees/feat");
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await waitFor(() => expect(git.newWorktree).toHaveBeenCalledWith("feat"));
    await waitFor(() => expect(onSwitched).toHaveBeenCalled());
  });

  it("in a worktree session: merge, and a discard confirmed after listing what it loses", async () => {
    worktrees = { main: "/w", current: "feat", list: [{ name: "feat", path: "/w.worktrees/feat", branch: "gatehouse/feat", base: "main" }], copy: [] };
    const git = fakeGit(view({ branch: "gatehouse/feat" }));
    const onSwitched = vi.fn();
    render(<Changes git={git} refresh={0} onClose={() => {}} onSwitched={onSwitched} />);
    fireEvent.click(await screen.findByRole("button", { name: "Merge into main" }));
    expect((await screen.findByText("Merged 1 commit(s) into main.")).getAttribute("role")).toBe("status");
    fireEvent.click(screen.getByRole("button", { name: "Discard…" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm.textContent).toContain("commit abc1234 Five");
    expect(confirm.textContent).toContain("uncommitted changes to b.txt");
    expect(onSwitched).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole("button", { name: "Discard them" }));
    await waitFor(() => expect(git.endWorktree).toHaveBeenLastCalledWith(true, true));
    await waitFor(() => expect(onSwitched).toHaveBeenCalled());
  });

  it("in an untrusted worktree session: a merge refused for trust says so, and the trust banner shows the settings", async () => {
    worktrees = { main: "/w", current: "feat", list: [{ name: "feat", path: "/w.worktrees/feat", branch: "gatehouse/feat", base: "main" }], copy: [] };
    const git = fakeGit(view({ branch: "gatehouse/feat" }, false));
    git.mergeWorktree.mockRejectedValueOnce(new Error("the repository's git settings are not trusted (it would run hook pre-commit)"));
    render(<Changes git={git} refresh={0} onClose={() => {}} onSwitched={vi.fn()} />);
    expect((await screen.findByText(/a merge that would run its hooks/)).getAttribute("role")).toBe("note");
    fireEvent.click(screen.getByRole("button", { name: "Merge into main" }));
    expect((await screen.findByText(/it would run hook pre-commit/)).textContent).toContain("not trusted");
    const banner = screen.getByRole("region", { name: "Git settings not trusted" });
    fireEvent.click(within(banner).getByRole("button", { name: "Trust git settings" }));
    await waitFor(() => expect(git.trustSettings).toHaveBeenCalledWith("cfg"));
  });

  it("says when the worktree folder is gone, and offers to end the session", async () => {
    worktrees = { main: "/w", current: "gone", list: [{ name: "gone", path: "/w.worktrees/gone", branch: "gatehouse/gone", base: "main", missing: true }], copy: [] };
    const git = fakeGit({ ...view(), gone: "The folder /w.worktrees/gone is gone: nothing is written anywhere else." });
    render(<Changes git={git} refresh={0} onClose={() => {}} onSwitched={() => {}} />);
    expect((await screen.findByRole("alert")).textContent).toContain("is gone");
    expect(await screen.findByRole("button", { name: "Keep the branch, remove the worktree" })).toBeTruthy();
  });

  it("says when the folder is not a git repository", async () => {
    const git = fakeGit({ ...view(), notRepo: true });
    render(<Changes git={git} refresh={0} onClose={() => {}} />);
    expect(await screen.findByText(/not a git repository/)).toBeTruthy();
  });

  it("marks a changed file, tracked or new, that the language servers find errors in", async () => {
    const git = fakeGit(view());
    const err = { path: "a.txt", line: 1, col: 1, endLine: 1, severity: "error", message: "bad" };
    render(<Changes git={git} refresh={0} onClose={() => {}} errors={new Map([["a.txt", [err, { ...err, line: 10 }]], ["new.txt", [{ ...err, path: "new.txt" }]]])} />);
    expect(await screen.findByRole("listitem", { name: "a.txt, modified, 2 errors" })).toBeTruthy();
    expect(screen.getByRole("listitem", { name: "new.txt, untracked, 1 error" }).textContent).toContain("⚠ 1 error");
  });
});
