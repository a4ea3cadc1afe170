import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, send } from "./harness";
import { gitRepo } from "./git";

/** Makes worktree session name from the main worktree's Changes view; the window shows its new tab. */
async function newWorktree(page: Page, name: string) {
  await page.getByRole("button", { name: "Changes", exact: true }).click();
  const view = page.getByRole("region", { name: "Changes" });
  await view.getByRole("textbox", { name: "New session in a worktree" }).fill(name);
  await view.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("button", { name: `Workspace ${name}, choose another folder` })).toBeVisible();
  await view.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("tab", { name: new RegExp(`^Session ${name}(,|$)`), selected: true })).toBeVisible();
}

const tabOf = (page: Page, name: string) => page.getByRole("tablist", { name: "Open sessions" }).getByRole("tab", { name: new RegExp(`^Session ${name}(,|$)`) });

test("two worktree sessions run at once: the background one's approval badges its tab and is approved from it", async ({ app }) => {
  const { page, workspace, configDir, modelViolations } = await app({
    approvalMode: "safe",
    files: { "a.txt": "main\n" },
    script: {
      models: ["fake-model"],
      // After alpha's write, the one request in sequence: its last message is the write's result.
      responses: [{ text: "Alpha is done." }],
      when: [
        // Alpha answers slowly, so its dialog opens while beta is shown.
        { lastContains: "task alpha", response: { delayMs: 600, text: "Working on alpha now.",
          toolCalls: [{ id: "call_alpha", name: "write_file", arguments: JSON.stringify({ path: "alpha.txt", content: "from alpha\n" }) }] } },
        // Beta streams for longer still: both turns run at once.
        { lastContains: "task beta", response: { delayMs: 500, text: "Beta streams its reply word by word while alpha waits for you, and then it ends here." } },
      ],
    },
  });
  const git = gitRepo(workspace, configDir);
  const before = git("status", "--porcelain");

  await newWorktree(page, "alpha");
  await tabOf(page, "workspace").click(); // the main worktree's tab: the one that makes worktrees
  await newWorktree(page, "beta");
  await expect(page.getByRole("tablist", { name: "Open sessions" }).getByRole("tab")).toHaveCount(3);

  await tabOf(page, "alpha").click();
  await expect(page.getByRole("button", { name: "Workspace alpha, choose another folder" })).toBeVisible();
  await send(page, "task alpha");
  await tabOf(page, "beta").click();
  await expect(page.getByRole("button", { name: "Workspace beta, choose another folder" })).toBeVisible();
  await send(page, "task beta");

  // Alpha's request arrives while beta is shown and still streaming: a badge on alpha's tab, no dialog here.
  await expect(tabOf(page, "alpha")).toHaveAccessibleName("Session alpha, task alpha, 1 waiting for you");
  await expect(tabOf(page, "alpha")).toContainText("1 waiting");
  await expect(tabOf(page, "beta")).toHaveAccessibleName("Session beta, task beta, running");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("task beta");

  // From its tab: the dialog names the session, and approving it runs the write in alpha's worktree.
  await tabOf(page, "alpha").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("in session alpha");
  await expect(dialog).toContainText("alpha.txt");
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Alpha is done.");
  await expect(tabOf(page, "alpha")).toHaveAccessibleName("Session alpha, task alpha");

  await tabOf(page, "beta").click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("and then it ends here.");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("task beta");

  expect(fs.readFileSync(`${workspace}.worktrees/alpha/alpha.txt`, "utf8")).toBe("from alpha\n");
  expect(fs.existsSync(`${workspace}.worktrees/beta/alpha.txt`)).toBe(false);
  expect(fs.existsSync(path.join(workspace, "alpha.txt"))).toBe(false);
  expect(git("status", "--porcelain")).toBe(before);
  expect(await modelViolations()).toEqual([]);
});

test("a worktree deleted behind the window's back: its tab is marked, takes no message, and the window goes on", async ({ app }) => {
  const { page, workspace, configDir, modelRequests } = await app({ approvalMode: "safe", files: { "a.txt": "main\n" } });
  const git = gitRepo(workspace, configDir);
  const before = git("status", "--porcelain");
  const folder = `${workspace}.worktrees/gone`;

  await newWorktree(page, "gone");
  await tabOf(page, "workspace").click();
  await expect(page.getByRole("button", { name: "Workspace workspace, choose another folder" })).toBeVisible();
  fs.rmSync(folder, { recursive: true, force: true });

  await expect(tabOf(page, "gone")).toHaveAccessibleName("Session gone, folder gone");
  await tabOf(page, "gone").click();
  await expect(page.getByRole("alert").filter({ hasText: "is gone: nothing is written anywhere else" })).toBeVisible();
  await send(page, "write something");
  await expect(page.getByRole("alert").filter({ hasText: "is gone" })).toHaveCount(2);
  expect(fs.existsSync(folder)).toBe(false);

  await page.getByRole("alert").filter({ hasText: "nothing is written anywhere else" }).getByRole("button", { name: "Close this session" }).click();
  await expect(page.getByRole("tablist", { name: "Open sessions" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Workspace workspace, choose another folder" })).toBeVisible();
  expect(fs.existsSync(folder)).toBe(false);
  expect(git("status", "--porcelain")).toBe(before);
  expect(await modelRequests()).toEqual([]);
});

test("two sessions on one folder: each says the other works there, and the other's write marks a waiting dialog stale", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "same.txt": "before\n" },
    script: {
      models: ["fake-model"],
      responses: [],
      when: [
        // The first session's answer comes slowly: its dialog waits in the background.
        { lastContains: "task one", response: { delayMs: 400, text: "Writing same.txt in a moment.",
          toolCalls: [{ id: "call_one", name: "write_file", arguments: JSON.stringify({ path: "same.txt", content: "from one\n" }) }] } },
        { lastContains: "task two", response: { toolCalls: [{ id: "call_two", name: "write_file", arguments: JSON.stringify({ path: "same.txt", content: "from two\n" }) }] } },
        { lastContains: "same.txt", response: { text: "Wrote it." } },
      ],
    },
  });
  await send(page, "task one");
  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menuitem", { name: "Open another session beside this one (it goes on)" }).click();
  await expect(page.getByRole("tablist", { name: "Open sessions" }).getByRole("tab")).toHaveCount(2);
  await expect(page.getByRole("note", { name: "Shared folder" })).toContainText("Session workspace also works in this folder");
  const axe = await new AxeBuilder({ page }).include(".session-tabs").include(".tab-notice").analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await send(page, "task two");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("in session workspace 2");
  await expect(tabOf(page, "workspace")).toHaveAccessibleName("Session workspace, task one, 1 waiting for you");
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => fs.readFileSync(path.join(workspace, "same.txt"), "utf8")).toBe("from two\n");

  await tabOf(page, "workspace").click();
  await expect(page.getByRole("note", { name: "Shared folder" })).toContainText("Session workspace 2 also works in this folder");
  const first = page.getByRole("dialog");
  await expect(first).toContainText("in session workspace");
  await expect(first.getByText("⚠ same.txt changed on disk since this preview")).toBeVisible();
  await expect(first.getByRole("button", { name: "Approve once" })).toBeDisabled();
  expect(fs.readFileSync(path.join(workspace, "same.txt"), "utf8")).toBe("from two\n");
});

test("the three tabs open at quit come back at the next start, each with its session resumed", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: {
      models: ["fake-model"],
      responses: [],
      when: ["first", "second", "third", "fourth"].map((w) => ({ lastContains: `task ${w}`, response: { text: `Done with the ${w}.` } })),
    },
  });
  const { page } = a;
  const tabs = page.getByRole("tablist", { name: "Open sessions" }).getByRole("tab");
  for (const [i, w] of ["first", "second", "third"].entries()) {
    if (i > 0) {
      await page.getByRole("button", { name: "Sessions" }).click();
      await page.getByRole("menuitem", { name: "Open another session beside this one (it goes on)" }).click();
      await expect(tabs).toHaveCount(i + 1);
    }
    await send(page, `task ${w}`);
    await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText(`Done with the ${w}.`);
  }
  await tabOf(page, "workspace 2").click();
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("task second");

  await a.restart();
  await expect(tabs).toHaveCount(3);
  await expect(tabs.nth(0)).toHaveAccessibleName("Session workspace, task first");
  await expect(tabs.nth(1)).toHaveAccessibleName("Session workspace 2, task second");
  await expect(tabs.nth(2)).toHaveAccessibleName("Session workspace 3, task third");
  await expect(tabOf(page, "workspace 2")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("task second");
  for (const [name, w] of [["workspace", "first"], ["workspace 3", "third"]]) {
    await tabOf(page, name).click();
    await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
    await expect(page.getByRole("article", { name: "Your message" })).toContainText(`task ${w}`);
    await expect(page.getByRole("article", { name: "Reply" })).toContainText(`Done with the ${w}.`);
  }
  // The third goes on where it was.
  await send(page, "task fourth");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(2);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Done with the fourth.");
  expect(await a.modelViolations()).toEqual([]);
});
