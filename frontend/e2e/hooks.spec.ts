import fs from "node:fs";
import path from "node:path";
import { test, expect, send, toolCall } from "./harness";

const deny = `grep -q 'rm -rf' && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0`;
const ask = `echo '{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "release freeze"}}'`;

// A team's hooks in the user's hooks file: one refuses rm -rf, one asks
// before any write. In auto mode the deny shows on the card with the hook's
// name (nothing removed, the turn goes on), and the ask opens the dialog
// naming the hook and its reason; it is answered from the keyboard.
test("a hook's deny shows on the card with its name, and a hook's ask opens the dialog in auto naming it", async ({ app }) => {
  const a = await app({
    approvalMode: "auto",
    files: { "build/out.txt": "built\n" },
    homeFiles: {
      ".config/gatehouse/hooks.json": JSON.stringify({ hooks: { PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: deny }] },
        { matcher: "Write", hooks: [{ type: "command", command: ask }] },
      ] } }),
    },
    script: {
      models: ["fake-model"],
      responses: [
        toolCall("call_1", "bash", { action: "exec", command: "rm -rf build" }),
        { text: "The hook refused it." },
        toolCall("call_2", "write_file", { path: "notes.txt", content: "hello\n" }),
        { text: "Written." },
      ],
    },
  });
  const { page } = a;

  await send(page, "clean the build");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The hook refused it.");
  const card = page.getByRole("group", { name: /^bash .*rm -rf build.*, failed$/ });
  await expect(card).toContainText("rm -rf is not allowed here");
  const hooks = card.getByRole("list", { name: "Hooks that ran" });
  await expect(hooks).toContainText(deny);
  await expect(hooks).toContainText("(PreToolUse, as Bash)");
  await expect(hooks).toContainText("✗ deny");
  expect(fs.existsSync(path.join(a.workspace, "build/out.txt"))).toBe(true);
  // What the hook printed, on demand, from the keyboard.
  const output = hooks.getByRole("button", { name: `Show what hook ${deny} printed` });
  await output.focus();
  await page.keyboard.press("Enter");
  await expect(hooks.getByLabel(`Standard error of ${deny}`, { exact: true })).toContainText("rm -rf is not allowed here");

  await send(page, "write the notes");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("auto mode");
  const said = dialog.getByRole("region", { name: "Your hooks" });
  await expect(said).toContainText(`Hook ${ask} asks you to decide: release freeze`);
  await expect(said.getByRole("list", { name: "Hooks that ran" })).toContainText("(PreToolUse, as Write)");
  await page.keyboard.press("Control+Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Written.");
  expect(fs.readFileSync(path.join(a.workspace, "notes.txt"), "utf8")).toBe("hello\n");
  const written = page.getByRole("group", { name: /^write_file notes\.txt, done$/ });
  await expect(written.getByRole("list", { name: "Hooks that ran" })).toContainText(/ask\s*— release freeze/);
  expect(await a.modelViolations()).toEqual([]);
});

// Settings → Hooks imports Claude Code's hooks: each command is shown
// before anything is written; run on a sample call, the ones that would
// now block (exit 1, a program that is not there) are marked and the one
// that exits 0 is not; the import merges them into the hooks file, and the
// list shows them by event. Keyboard only.
test("Settings → Hooks imports a Claude Code settings file and marks the hooks that would now block", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    homeFiles: {
      ".claude/settings.json": JSON.stringify({
        permissions: { allow: ["Bash(npm test)"] },
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [
            { type: "command", command: "exit 0" },
            { type: "command", command: "exit 1" },
            { type: "command", command: "no-such-program-for-gatehouse-e2e" },
          ] }],
          PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "exit 1" }] }],
        },
      }),
    },
  });
  const { page } = a;

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const tab = page.getByRole("tablist", { name: "Settings sections" }).getByRole("tab", { name: "Hooks" });
  await tab.focus();
  await page.keyboard.press("Enter");
  const panel = page.getByRole("tabpanel", { name: "Hooks" });
  await expect(panel).toContainText("No hooks yet");
  await panel.getByRole("button", { name: "Import from Claude Code…" }).focus();
  await page.keyboard.press("Enter");
  const region = panel.getByRole("region", { name: "Import from Claude Code" });
  await expect(region.getByRole("textbox", { name: "Claude Code settings file" })).toHaveValue(/\.claude\/settings\.json$/);
  await region.getByRole("button", { name: "Read" }).focus();
  await page.keyboard.press("Enter");
  const list = region.getByRole("list", { name: "Hooks to import" });
  await expect(list.getByRole("listitem")).toHaveCount(4);
  await expect(list).toContainText("no-such-program-for-gatehouse-e2e");
  await expect(list).not.toContainText("Would now BLOCK");

  await region.getByRole("button", { name: "Run the blocking ones on a sample call" }).focus();
  await page.keyboard.press("Enter");
  const items = list.getByRole("listitem");
  await expect(items.nth(1)).toContainText("Would now BLOCK: exited with 1 on a sample call");
  await expect(items.nth(2)).toContainText("Would now BLOCK: exited with 127 on a sample call");
  await expect(items.nth(0)).not.toContainText("Would now BLOCK");
  await expect(items.nth(0)).toContainText("Checked on a sample: no objection, exit code 0");
  await expect(items.nth(3)).not.toContainText("Would now BLOCK");

  await region.getByRole("button", { name: "Import 4 hooks" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("status")).toContainText("Imported 4 hooks into");
  const pre = panel.getByRole("list", { name: "PreToolUse hooks" });
  await expect(pre.getByRole("listitem")).toHaveCount(3);
  await expect(panel.getByRole("list", { name: "PostToolUse hooks" })).toContainText("exit 1");
  const written = JSON.parse(fs.readFileSync(path.join(a.configDir, "hooks.json"), "utf8"));
  expect(written.hooks.PreToolUse[0].hooks.map((h: { command: string }) => h.command)).toEqual(["exit 0", "exit 1", "no-such-program-for-gatehouse-e2e"]);
});
