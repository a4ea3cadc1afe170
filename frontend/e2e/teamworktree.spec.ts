import fs from "node:fs";
import path from "node:path";
import { test, expect, send } from "./harness";
import { call, teamsOn } from "./teams";
import { gitRepo } from "./git";

// A teammate in its own worktree, in the window: the lead spawns it with
// worktree, the Team panel names its branch and folder, its write asks in
// the panel like any teammate's and lands in its worktree, never in the
// lead's workspace; the worktree and its branch stay, for the user to
// merge, keep or discard.


test("a teammate spawned with worktree works in its own worktree: the panel names its branch, its file lands there, not in the workspace", async ({ app }) => {
  const { page, workspace, configDir, modelViolations } = await app({
    approvalMode: "safe",
    files: { "a.txt": "alpha\n" },
    homeFiles: {
      ".config/gatehouse/agents/writer.md":
        "---\nname: writer\ndescription: Writes files.\ntools: [read_file, write_file]\nmodel: writer-model\n---\nWrite what you are asked.\n",
    },
    script: {
      models: ["fake-model", "writer-model"],
      responses: [
        { toolCalls: [call("s1", "team_spawn", { name: "writer", agent: "writer", task: "Add b.txt.", worktree: true })] },
        { text: "The writer is on it." },
      ],
      when: [{ lastContains: "[team", response: { text: "Noted." } }],
      byModel: {
        "writer-model": [
          { toolCalls: [call("w1", "write_file", { path: "b.txt", content: "made by the writer\n" })] },
          { text: "Added b.txt." },
        ],
      },
    },
  });
  const git = gitRepo(workspace, configDir);
  const worktree = `${workspace}.worktrees/team-writer`;

  const panel = await teamsOn(page);

  await send(page, "add b.txt in a worktree");
  const spawn = page.getByRole("dialog", { name: "team_spawn wants to run with these arguments" });
  await spawn.getByRole("button", { name: "Approve once" }).click();
  await expect(page.getByRole("article", { name: "Reply" }).filter({ hasText: "The writer is on it." })).toBeVisible();

  // The panel names where it works, and its write waits there, named.
  const writer = panel.getByRole("button", { name: new RegExp(`^writer, writer agent, waiting for you.*in its worktree on gatehouse/team-writer at ${worktree.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });
  await expect(writer).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await panel.getByRole("button", { name: "Answer writer › write_file" }).click();
  const dialog = page.getByRole("dialog", { name: /^writer › write_file wants to/ });
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole("button", { name: /^writer, writer agent, (idle|done)/ })).toBeVisible();

  // Its file is in its worktree, on its branch's folder; the lead's workspace has none.
  expect(fs.readFileSync(path.join(worktree, "b.txt"), "utf8")).toBe("made by the writer\n");
  expect(fs.existsSync(path.join(workspace, "b.txt"))).toBe(false);
  expect(git("status", "--porcelain")).toBe("");
  expect(git("worktree", "list")).toContain("team-writer");
  expect(git("branch", "--list", "gatehouse/team-writer")).toContain("gatehouse/team-writer");
  expect(await modelViolations()).toEqual([]);
});
