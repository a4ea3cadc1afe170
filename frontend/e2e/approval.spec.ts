import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

const patch = (...files: [string, string, string][]) =>
  ["*** Begin Patch", ...files.flatMap(([f, from, to]) => [`*** Update File: ${f}`, "@@", `-${from}`, `+${to}`]), "*** End Patch"].join("\n");

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function send(page: import("@playwright/test").Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

test("approve one file of a two-file patch: only that file changes", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "a.txt": "one\ntwo\n", "b.txt": "alpha\nbeta\n" },
    script: {
      models: ["fake-model"],
      responses: [call("call_1", "apply_patch", { patch: patch(["a.txt", "one", "ONE"], ["b.txt", "alpha", "ALPHA"]) }), { text: "Patched what you allowed." }],
    },
  });
  await send(page, "shout the first lines");
  const dialog = page.getByRole("dialog", { name: "apply_patch wants to change 2 files" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("safe mode");
  // Focus starts on the file list, never on an approve button.
  await expect(dialog.getByRole("checkbox", { name: "Apply a.txt" })).toBeFocused();
  await expect(dialog.getByRole("region", { name: "Changes to a.txt" })).toContainText("ONE");
  await dialog.getByRole("button", { name: /^b\.txt/ }).click();
  const bDiff = dialog.getByRole("region", { name: "Changes to b.txt" });
  await expect(bDiff).toContainText("ALPHA");
  await dialog.getByRole("button", { name: "Side by side" }).click();
  await expect(dialog.getByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");
  await expect(bDiff).toContainText("alpha");
  await expect(dialog.getByText("rule: apply_patch on a.txt, b.txt (this session)")).toBeVisible();

  await dialog.getByRole("checkbox", { name: "Apply b.txt" }).uncheck();
  await expect(dialog.getByRole("button", { name: "Approve once" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Approve selected" }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Patched what you allowed.");
  await expect(page.getByRole("group", { name: /^apply_patch .*, done$/ })).toBeVisible();
  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toBe("ONE\ntwo\n");
  expect(fs.readFileSync(path.join(workspace, "b.txt"), "utf8")).toBe("alpha\nbeta\n");
});

test("reject with a note: the turn is blocked, the note shows, the file is unchanged", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "a.txt": "one\n" },
    script: { models: ["fake-model"], responses: [call("call_1", "apply_patch", { patch: patch(["a.txt", "one", "uno"]) })] },
  });
  await send(page, "translate it");
  const dialog = page.getByRole("dialog", { name: "apply_patch wants to change a.txt" });
  await expect(dialog).toBeVisible();
  // Enter on the file list does not approve; Esc goes to Reject without sending.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await expect(dialog.getByRole("button", { name: "Reject" })).toBeFocused();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("textbox", { name: "Note to the model (optional)" }).fill("keep it in English");
  await dialog.getByRole("button", { name: "Reject" }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("blocked: you rejected apply_patch — note: keep it in English");
  await expect(page.getByRole("group", { name: /^apply_patch .*, failed$/ })).toContainText("keep it in English");
  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toBe("one\n");
});

test("npm test approved for the session runs again without asking; npm test -- --watch asks", async ({ app }) => {
  const exec = (id: string, command: string) => call(id, "bash", { action: "exec", command });
  const { page } = await app({
    approvalMode: "safe",
    files: { "package.json": JSON.stringify({ name: "rules-e2e", version: "1.0.0", private: true, scripts: { test: "echo tests-passed" } }) },
    script: {
      models: ["fake-model"],
      responses: [
        exec("call_1", "npm test"), { text: "First run." },
        exec("call_2", "npm test"), { text: "Second run." },
        // A rejected call ends the turn: the next request is the next turn's.
        exec("call_3", "npm test -- --watch"),
        exec("call_4", "npm test && rm -rf ."), { text: "never" },
      ],
    },
  });
  await send(page, "run the tests");
  const dialog = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("group", { name: "The command" })).toBeFocused();
  // The dialog spells out the rule's exact scope before the click.
  await expect(dialog.getByText("rule: run exactly `npm test` (exec, in the workspace root; no other arguments, assignments or redirections but 2>&1 and /dev/null) (this session)")).toBeVisible();
  await dialog.getByRole("button", { name: "Approve for session" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("First run.");
  await expect(page.getByRole("button", { name: "Rules (1)" })).toBeVisible();

  // The same command rides on the rule: no dialog, and it ran.
  await send(page, "again");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Second run.");
  await expect(page.getByRole("note", { name: "End of turn" })).toHaveCount(2);
  await expect(page.getByRole("group", { name: /^bash .*, done$/ })).toHaveCount(2);

  // With more arguments it is another command: the dialog comes back.
  await send(page, "watch them");
  const watch = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(watch).toBeVisible();
  await expect(watch.getByRole("list", { name: "Steps" })).toContainText("npm test -- --watch");
  await watch.getByRole("button", { name: "Reject" }).click();
  await expect(watch).toHaveCount(0);
  await expect(page.getByRole("note", { name: "End of turn" }).last()).toContainText("blocked: you rejected");

  // Chained with rm, it asks too, and the step is flagged.
  await send(page, "and clean up");
  const chained = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(chained).toBeVisible();
  const steps = chained.getByRole("list", { name: "Steps" });
  await expect(steps.getByRole("listitem")).toHaveCount(2);
  await expect(steps.getByRole("listitem").nth(1)).toContainText("rm -rf .");
  await expect(steps.getByRole("listitem").nth(1)).toContainText("deletes files");
  await chained.getByRole("button", { name: "Reject" }).click();
  await expect(chained).toHaveCount(0);

  // The rule is listed with its exact scope and can be revoked.
  await page.getByRole("button", { name: "Rules (1)" }).click();
  const rules = page.getByRole("dialog", { name: "Session rules" });
  await expect(rules).toContainText("exactly npm test · exec · in ");
  await rules.getByRole("button", { name: /^Revoke rule/ }).click();
  await expect(page.getByRole("button", { name: "Rules (0)" })).toBeVisible();
});
