// What the approval dialog tells about a call beyond its diff or its
// command text: paths read or written outside the workspace, destructive
// subcommands in words, where a file really is, and files replaced whole.
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { CommandPreview, FilePreview } from "../bridge";
import { ApprovalCommand } from "./ApprovalCommand";
import { ApprovalFiles } from "./ApprovalFiles";

afterEach(cleanup);

function steps(command: CommandPreview) {
  render(<ApprovalCommand command={command} />);
  return within(screen.getByRole("list", { name: "Steps" })).getAllByRole("listitem");
}

function files(list: FilePreview[]) {
  render(<ApprovalFiles files={list} partial={false} ticks={new Set()} onToggleFile={() => {}} onToggleKey={() => {}} />);
}

const file = (f: Partial<FilePreview>): FilePreview => ({
  path: "a.txt", operation: "update", added: 1, removed: 1, oldHash: "", oldContent: "", newContent: "",
  diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n", ...f,
});

describe("the command's badges", () => {
  it("names each path a step reads or writes outside the workspace", () => {
    const [cat, cp] = steps({
      action: "exec", command: "cat ~/.ssh/id_rsa; cp a /tmp/b", cwd: "/w",
      segments: [
        { text: "cat ~/.ssh/id_rsa", args: ["cat", "~/.ssh/id_rsa"], readsOutside: ["~/.ssh/id_rsa"] },
        { text: "cp a /tmp/b", args: ["cp", "a", "/tmp/b"], writesOutside: true, writesOutsideTo: ["/tmp/b"] },
      ],
    });
    expect(within(cat).getByText("⚠ reads ~/.ssh/id_rsa (outside the workspace)")).toBeTruthy();
    expect(within(cp).getByText("⚠ writes /tmp/b (outside the workspace)")).toBeTruthy();
    expect(within(cp).queryByText("⚠ writes outside the workspace")).toBeNull();
  });

  it("tells a protected place in the workspace from a place outside it", () => {
    const [echo] = steps({
      action: "exec", command: "echo x > .git/config", cwd: "/w",
      segments: [{ text: "echo x > .git/config", args: ["echo", "x"], writesOutside: true, writesOutsideTo: [".git/config"], protectedPaths: [".git/config"] }],
    });
    expect(within(echo).getByText("⚠ writes .git/config (a protected place)")).toBeTruthy();
  });

  it("says what a destructive step destroys, first", () => {
    const [push] = steps({
      action: "exec", command: "git -C . push --force", cwd: "/w",
      segments: [{ text: "git -C . push --force", args: ["git", "-C", ".", "push", "--force"], network: true, destructive: "rewrites history on the remote" }],
    });
    const badges = push.querySelectorAll(".badge");
    expect(badges[0].textContent).toBe("⚠ rewrites history on the remote");
    expect(within(push).getByText("⚠ uses the network")).toBeTruthy();
  });
});

describe("the files' notes", () => {
  it("shows where a file really is when the model's path differs", () => {
    files([file({ path: "link/a.txt", resolvedPath: "src/a.txt" })]);
    expect(screen.getByRole("note").textContent).toBe("↪ link/a.txt is really src/a.txt");
  });

  it("shows nothing more for a plain path", () => {
    files([file({})]);
    expect(screen.queryByRole("note")).toBeNull();
    expect(screen.queryByText("replaces")).toBeNull();
  });

  it("says a write replaces an existing file and diffs against its content", () => {
    files([file({ operation: "add", replaces: true, diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-was here\n+fresh\n" })]);
    expect(screen.getByText("replaces")).toBeTruthy();
    expect(screen.getByText("⚠ a.txt replaces an existing file: the diff is against its current content.")).toBeTruthy();
    expect(screen.getByText("was here")).toBeTruthy();
  });

  it("shows what a move's destination held before it is replaced", () => {
    files([file({
      path: "b.txt", operation: "move", movedFrom: "a.txt", resolvedFrom: "src/a.txt", replaces: true,
      replacedDiff: "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-old b\n+new\n",
    })]);
    expect(screen.getByText("↪ a.txt is really src/a.txt")).toBeTruthy();
    expect(screen.getByText("⚠ b.txt replaces an existing file: what it holds now is lost.")).toBeTruthy();
    fireEvent.click(screen.getByText("What b.txt holds now, and what it will hold"));
    expect(screen.getByRole("group", { name: "Diff of b.txt (replaced)" }).textContent).toContain("old b");
  });
});
