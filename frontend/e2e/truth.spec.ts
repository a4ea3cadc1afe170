// The approval dialog tells what a call will really do: paths read outside
// the workspace, destructive subcommands behind global options, files
// replaced whole and files reached through a symlink.
import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function send(page: import("@playwright/test").Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

for (const { command, badges } of [
  { command: "git -C . push --force", badges: ["⚠ rewrites history on the remote", "⚠ uses the network"] },
  { command: "cat ~/.ssh/id_rsa", badges: ["⚠ reads ~/.ssh/id_rsa (outside the workspace)"] },
]) {
  test(`the dialog for \`${command}\` says what it does`, async ({ app }) => {
    const { page } = await app({
      approvalMode: "safe",
      script: { models: ["fake-model"], responses: [call("call_1", "bash", { action: "exec", command })] },
    });
    await send(page, "go");
    const dialog = page.getByRole("dialog", { name: "bash wants to run a command" });
    await expect(dialog).toBeVisible();
    const step = dialog.getByRole("list", { name: "Steps" }).getByRole("listitem");
    await expect(step).toHaveCount(1);
    await expect(step).toContainText(command);
    for (const b of badges) await expect(step.getByText(b, { exact: true })).toBeVisible();
    // A flagged line offers no rule for the session.
    await expect(dialog.getByRole("button", { name: "Approve for session" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Reject" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("note", { name: "End of turn" })).toContainText("blocked: you rejected bash");
  });
}

test("an Add File over an existing file through a symlinked folder says where and what it replaces", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "src/a.txt": "old line\n" },
    script: {
      models: ["fake-model"],
      responses: [call("call_1", "apply_patch", { patch: "*** Begin Patch\n*** Add File: link/a.txt\n+new line\n*** End Patch" }), { text: "Replaced." }],
    },
  });
  fs.symlinkSync("src", path.join(workspace, "link"));
  await send(page, "rewrite it");
  const dialog = page.getByRole("dialog", { name: "apply_patch wants to replace link/a.txt" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("note").filter({ hasText: "↪" })).toHaveText("↪ link/a.txt is really src/a.txt");
  await expect(dialog.getByText("⚠ link/a.txt replaces an existing file: the diff is against its current content.")).toBeVisible();
  const diff = dialog.getByRole("region", { name: "Changes to link/a.txt" });
  await expect(diff).toContainText("old line");
  await expect(diff).toContainText("new line");
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Replaced.");
  expect(fs.readFileSync(path.join(workspace, "src/a.txt"), "utf8")).toBe("new line\n");
});
