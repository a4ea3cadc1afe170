import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, send, toolCall as call } from "./harness";
import { gitRepo } from "./git";

const lines = (edits: Record<number, string> = {}) =>
  Array.from({ length: 20 }, (_, i) => edits[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

const draftRequest = "Write the commit message for this staged diff.";

test("the Changes view stages one hunk, the model drafts a message, the user edits and commits it", async ({ app }) => {
  const { page, workspace, configDir, modelRequests } = await app({
    approvalMode: "auto",
    files: { "a.txt": lines(), "notes.md": "keep\n" },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "write_file", { path: "a.txt", content: lines({ 2: "LINE TWO", 18: "LINE EIGHTEEN" }) }),
        { text: "Changed two lines of a.txt." },
      ],
      when: [{ lastContains: draftRequest, response: { text: "Capitalise line two\n\nCo-authored-by: A Model <model@example.com>" } }],
    },
  });
  // A repository with the user's identity (the backend's HOME is the test's own).
  const git = gitRepo(workspace, configDir);

  await send(page, "change a.txt");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Changed two lines of a.txt.");

  await page.getByRole("button", { name: "Changes", exact: true }).click();
  const view = page.getByRole("region", { name: "Changes" });
  await expect(view.getByLabel("Branch")).toHaveText("main");
  // Not trusted yet: git ran without the repository's hooks and config, and commit waits.
  const banner = view.getByRole("region", { name: "Git settings not trusted" });
  await expect(banner).toBeVisible();

  // Stage the first hunk only.
  await view.getByRole("button", { name: "Stage hunk 1 of a.txt", exact: true }).click();
  await expect(view.getByRole("button", { name: "Unstage hunk 1 of a.txt" })).toBeVisible();
  await expect(view.getByRole("button", { name: "Stage hunk 1 of a.txt", exact: true })).toBeVisible(); // the other hunk, now the only unstaged one
  await expect(view.getByRole("button", { name: "Stage hunk 2 of a.txt", exact: true })).toHaveCount(0);

  // The model drafts; the draft is shown for editing and nothing is committed.
  const message = view.getByRole("textbox", { name: "Commit message" });
  await view.getByRole("button", { name: "Draft with the model" }).click();
  await expect(message).toHaveValue("Capitalise line two");
  expect(git("log", "--format=%s")).toBe("first\n");
  const draft = (await modelRequests()).map((r) => JSON.stringify(r)).find((r) => r.includes(draftRequest)) ?? "";
  expect(draft).toContain("+LINE TWO");
  expect(draft).not.toContain("LINE EIGHTEEN");

  await message.fill("Capitalise the second line");
  await expect(view.getByRole("button", { name: "Commit" })).toBeDisabled();
  await banner.getByRole("button", { name: "Trust git settings" }).click();
  await expect(banner).toHaveCount(0);
  await view.getByRole("button", { name: "Commit" }).click();
  await expect(view.getByRole("status").filter({ hasText: "Committed" })).toContainText("Capitalise the second line");

  expect(git("log", "-1", "--format=%B")).toBe("Capitalise the second line\n\n");
  const shown = git("show", "--format=", "HEAD");
  expect(shown).toContain("+LINE TWO");
  expect(shown).not.toContain("EIGHTEEN");
  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toContain("LINE EIGHTEEN");
  await expect(view.getByText("Staged (0)")).toBeVisible();

  // Discard the remaining hunk, then take the discard back with undo.
  await view.getByRole("button", { name: "Discard hunk 1 of a.txt" }).click();
  await expect(view.getByText("No changes in the working tree.")).toBeVisible();
  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).not.toContain("EIGHTEEN");
  await view.getByRole("button", { name: "Undo the discard" }).click();
  const undo = page.getByRole("dialog", { name: "Undo discard 1" });
  await undo.getByRole("button", { name: "Undo", exact: true }).click();
  await expect(undo).toHaveCount(0);
  await expect.poll(() => fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toContain("LINE EIGHTEEN");
  await expect(view.getByRole("button", { name: "Stage hunk 1 of a.txt", exact: true })).toBeVisible();

  const axe = await new AxeBuilder({ page }).include(".changes").analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test("a session in its own worktree: the agent works there, the user commits, merges into main and discards it", async ({ app }) => {
  const { page, workspace, configDir } = await app({
    approvalMode: "auto",
    files: { "a.txt": lines() },
    script: {
      models: ["fake-model"],
      responses: [call("call_1", "write_file", { path: "b.txt", content: "made in the worktree\n" }), { text: "Added b.txt." }],
    },
  });
  const git = gitRepo(workspace, configDir);
  const worktree = `${workspace}.worktrees/feat`;

  await page.getByRole("button", { name: "Changes", exact: true }).click();
  const view = page.getByRole("region", { name: "Changes" });
  await view.getByRole("textbox", { name: "New session in a worktree" }).fill("feat");
  await expect(view.getByText(`${workspace}.worktrees/feat`)).toBeVisible();
  await view.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("button", { name: "Workspace feat, choose another folder" })).toBeVisible();
  await expect(view.getByRole("heading", { name: "Worktree session feat" })).toBeVisible();

  await view.getByRole("button", { name: "Close" }).click();
  await send(page, "add b");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Added b.txt.");
  expect(fs.readFileSync(path.join(worktree, "b.txt"), "utf8")).toBe("made in the worktree\n");
  expect(fs.existsSync(path.join(workspace, "b.txt"))).toBe(false);

  await page.getByRole("button", { name: "Changes", exact: true }).click();
  await view.getByRole("region", { name: "Git settings not trusted" }).getByRole("button", { name: "Trust git settings" }).click();
  await view.getByRole("button", { name: "Stage b.txt" }).click();
  await view.getByRole("textbox", { name: "Commit message" }).fill("Add b");
  await view.getByRole("button", { name: "Commit" }).click();
  await expect(view.getByRole("region", { name: "Branch gatehouse/feat against main" })).toContainText("Add b");

  await view.getByRole("button", { name: "Merge into main" }).click();
  await expect(view.getByText("Merged 1 commit(s) into main.")).toBeVisible();
  expect(git("log", "--format=%s", "main")).toContain("Add b");
  expect(fs.readFileSync(path.join(workspace, "b.txt"), "utf8")).toBe("made in the worktree\n");

  // Merged: discarding loses nothing, so it asks nothing; the window is back in the main worktree.
  await view.getByRole("button", { name: "Discard…" }).click();
  await expect(page.getByRole("button", { name: "Workspace workspace, choose another folder" })).toBeVisible();
  await expect.poll(() => fs.existsSync(worktree)).toBe(false);
  expect(git("branch", "--list", "gatehouse/feat")).toBe("");
});

test("a worktree deleted behind the window's back: the view says so and the session ends with its branch kept", async ({ app }) => {
  const { page, workspace, configDir } = await app({ approvalMode: "safe", files: { "a.txt": lines() } });
  const git = gitRepo(workspace, configDir);
  const before = git("status", "--porcelain");

  await page.getByRole("button", { name: "Changes", exact: true }).click();
  const view = page.getByRole("region", { name: "Changes" });
  await view.getByRole("textbox", { name: "New session in a worktree" }).fill("gone");
  await view.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("button", { name: "Workspace gone, choose another folder" })).toBeVisible();

  fs.rmSync(`${workspace}.worktrees/gone`, { recursive: true, force: true });
  await view.getByRole("button", { name: "Refresh" }).click();
  await expect(view.getByRole("alert")).toContainText("is gone: nothing is written anywhere else");
  await view.getByRole("button", { name: "Keep the branch, remove the worktree" }).click();
  await expect(page.getByRole("button", { name: "Workspace workspace, choose another folder" })).toBeVisible();
  expect(git("branch", "--list", "gatehouse/gone")).toContain("gatehouse/gone");
  expect(git("worktree", "list")).not.toContain("gone");
  expect(git("status", "--porcelain")).toBe(before);
});
