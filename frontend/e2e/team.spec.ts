import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { test, expect, send } from "./harness";
import { call, teamsOn } from "./teams";

/** axe's WCAG 2.1 A and AA rules on the Team panel as it is, each violation in words. */
async function panelPasses(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).include("aside[aria-label='Team']").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`), `axe on ${what}`).toEqual([]);
}

// Agent teams in the window: /experimental teams turns them on, the lead
// spawns two scripted teammates (each agent definition names its own model,
// so each follows its own script whatever order their requests come in),
// the Team panel shows both and the board, and a teammate's approval waits
// in the panel, named, until it is answered from there.

const agentFile = (name: string, tools: string) =>
  `---\nname: ${name}\ndescription: The ${name} of the team.\ntools: [${tools}]\nmodel: ${name}-model\n---\nWork with the team.\n`;

test("/experimental teams: the lead spawns two teammates, the Team panel shows both and the board, and each teammate's dialog, named, is answered from the panel", async ({ app }) => {
  const patch = ["*** Begin Patch", "*** Update File: a.txt", "@@", "-alpha", "+ALPHA", "*** End Patch"].join("\n");
  const { page, workspace, modelViolations } = await app({
    approvalMode: "safe",
    files: { "a.txt": "alpha\n" },
    homeFiles: {
      ".config/gatehouse/agents/writer.md": agentFile("writer", "read_file, apply_patch"),
      ".config/gatehouse/agents/checker.md": agentFile("checker", "read_file, write_file"),
    },
    script: {
      models: ["fake-model", "writer-model", "checker-model"],
      responses: [
        { toolCalls: [
          call("u1", "team_task_update", { id: "t1", title: "shout a.txt", status: "open", owner: "lead" }),
          call("s1", "team_spawn", { name: "writer", agent: "writer", task: "Shout a.txt (task t1), then tell checker." }),
          call("s2", "team_spawn", { name: "checker", agent: "checker", task: "Start a review note, then wait for writer." }),
        ] },
        { text: "The team is on it." },
      ],
      // Whatever the team tells the lead later wakes it: it only acknowledges.
      when: [{ lastContains: "[team", response: { text: "Noted." } }],
      byModel: {
        "writer-model": [
          { toolCalls: [call("w1", "team_task_update", { id: "t1", status: "in_progress", owner: "writer" })] },
          { toolCalls: [call("w2", "apply_patch", { patch })] },
          { toolCalls: [
            call("w3", "team_task_update", { id: "t1", status: "done", note: "a.txt is upper case" }),
            call("w4", "team_message", { to: "checker", text: "a.txt is shouted, please check" }),
          ] },
          { text: "Shouted a.txt." },
        ],
        "checker-model": [
          { toolCalls: [call("k1", "write_file", { path: "review.txt", content: "pending\n" })] },
          { text: "Waiting for writer." },
          // writer's message wakes it.
          { text: "Checked: a.txt is upper case." },
        ],
      },
    },
  });

  const panel = await teamsOn(page);

  await send(page, "split the work");
  // Starting a teammate is the lead's own call: it asks at once; for the session covers the second.
  const spawn = page.getByRole("dialog", { name: "team_spawn wants to run with these arguments" });
  await spawn.getByRole("button", { name: "Approve for session" }).click();
  await expect(spawn).toHaveCount(0);
  // (The team's news may wake the lead again later: its reply is not always the last.)
  await expect(page.getByRole("article", { name: "Reply" }).filter({ hasText: "The team is on it." })).toBeVisible();
  // The lead's team calls read as words on their cards.
  await expect(page.getByRole("group", { name: /^team_spawn writer \(writer\): Shout a\.txt/ })).toBeVisible();
  await expect(page.getByRole("group", { name: /^team_task_update #t1 shout a\.txt → open/ })).toBeVisible();

  // Both teammates ask; neither dialog opens on its own: each waits in the panel, named.
  const writer = panel.getByRole("button", { name: /^writer, writer agent, waiting for you/ });
  const checker = panel.getByRole("button", { name: /^checker, checker agent, waiting for you/ });
  await expect(writer).toBeVisible();
  await expect(checker).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(panel.getByRole("region", { name: "Task board" }).getByRole("region", { name: "In progress, 1" })).toContainText("#t1 shout a.txt");

  // Answered from the panel: the checker's dialog is titled with it and names the writer's, waiting.
  await panel.getByRole("button", { name: "Answer checker › write_file" }).click();
  const dialog = page.getByRole("dialog", { name: /^checker › write_file wants to/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Also waiting: writer › apply_patch");
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(dialog).toHaveCount(0);

  await panel.getByRole("button", { name: "Answer writer › apply_patch" }).click();
  const patchDialog = page.getByRole("dialog", { name: "writer › apply_patch wants to change a.txt" });
  await patchDialog.getByRole("button", { name: "Approve once" }).click();
  await expect(patchDialog).toHaveCount(0);

  // The board moved the task to done through the writer; its message to the checker is in the thread.
  const done = panel.getByRole("region", { name: "Task board" }).getByRole("region", { name: "Done, 1" });
  await expect(done).toContainText("#t1 shout a.txt");
  await expect(done).toContainText("owner writer");
  await expect(done).toContainText("writer: a.txt is upper case");
  await expect(panel.getByRole("region", { name: "Team messages" })).toContainText("writer → checkera.txt is shouted, please check");
  await expect(panel.getByRole("button", { name: /^checker, checker agent, idle/ })).toBeVisible();

  await panelPasses(page, "the Team panel's board and messages");

  // A teammate's transcript, opened from the keyboard, with the chat's cards.
  await panel.getByRole("button", { name: /^writer, writer agent/ }).focus();
  await page.keyboard.press("Enter");
  const transcript = panel.getByRole("region", { name: "writer transcript" });
  await expect(transcript.getByRole("group", { name: "apply_patch a.txt, done" })).toBeVisible();
  await expect(transcript.getByRole("group", { name: "Message from writer to checker, sent" })).toBeVisible();
  await expect(transcript).toContainText("Shouted a.txt.");
  await panelPasses(page, "a teammate's transcript");

  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toBe("ALPHA\n");
  expect(fs.readFileSync(path.join(workspace, "review.txt"), "utf8")).toBe("pending\n");
  expect(await modelViolations()).toEqual([]);
});
