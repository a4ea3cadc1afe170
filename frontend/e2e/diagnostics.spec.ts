// Language servers in the approval dialog: a real gopls (make lsp-servers
// builds the pinned one) checks the proposed content in memory while the
// dialog waits, nothing written; after approval the card and the Problems
// panel say the same.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect, send, toolCall } from "./harness";

const gopls = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../build/out/lsp/bin/gopls");

const mainGo = [
  "package main",
  "",
  "func greet() string {",
  "\treturn \"hi\"",
  "}",
  "",
  "func main() {",
  "\tprintln(greet())",
  "}",
  "",
].join("\n");

// Hunk 1 is harmless; hunk 2 calls a function that does not exist.
const breaking = [
  "*** Begin Patch",
  "*** Update File: main.go",
  "@@ func greet() string {",
  "-\treturn \"hi\"",
  "+\treturn \"hello\"",
  "@@ func main() {",
  "-\tprintln(greet())",
  "+\tprintln(greeting())",
  "*** End Patch",
].join("\n");

test("the dialog of a patch that breaks the Go build says so per hunk before anything is written", async ({ app }) => {
  test.skip(!fs.existsSync(gopls), "gopls is not installed (make lsp-servers)");
  test.setTimeout(180_000);
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "go.mod": "module example.com/m\n\ngo 1.21\n", "main.go": mainGo },
    settings: { languageServers: { gopls: { command: gopls } } },
    script: {
      models: ["fake-model"],
      responses: [
        // The first call starts gopls and loads the module (read-only: it runs unasked).
        toolCall("call_1", "diagnostics", { path: "main.go" }),
        toolCall("call_2", "apply_patch", { patch: breaking }),
        { text: "Renamed the call." },
      ],
    },
  });
  const file = path.join(workspace, "main.go");
  const before = fs.statSync(file);
  await send(page, "rename the greeting");
  await expect(page.getByRole("group", { name: /^diagnostics main\.go, done$/ })).toBeVisible({ timeout: 90_000 });

  const dialog = page.getByRole("dialog", { name: "apply_patch wants to change main.go" });
  await expect(dialog).toBeVisible();
  const verdict = dialog.getByRole("status").filter({ hasText: /Language servers|introduces/ });
  await expect(verdict).toContainText("introduces 1 error", { timeout: 30_000 });
  await expect(verdict).toContainText("hunk 2: introduces 1 error");
  await expect(verdict).not.toContainText("hunk 1");
  await expect(verdict).toContainText("undefined: greeting");
  // The diff marks the line; its message shows on focus.
  const mark = dialog.getByRole("button", { name: /^line 8: error undefined: greeting/ });
  await mark.focus();
  await expect(dialog.getByRole("tooltip")).toContainText("undefined: greeting");
  // Checked in memory: the file's bytes and mtime are as they were.
  expect(fs.readFileSync(file, "utf8")).toBe(mainGo);
  expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);

  // Without the breaking hunk the change introduces nothing.
  await dialog.getByRole("checkbox", { name: "Apply hunk 2 of main.go" }).uncheck();
  await expect(verdict).toContainText("introduces no errors");
  await expect(verdict).not.toContainText("undefined: greeting");
  await dialog.getByRole("checkbox", { name: "Apply hunk 2 of main.go" }).check();
  await expect(verdict).toContainText("hunk 2: introduces 1 error");
  expect(fs.readFileSync(file, "utf8")).toBe(mainGo);

  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Renamed the call.");
  expect(fs.readFileSync(file, "utf8")).toContain("println(greeting())");

  // The card says what the applied edit broke, without unfolding.
  const card = page.getByRole("group", { name: /^apply_patch main\.go, done$/ });
  const note = card.getByRole("note", { name: "Language servers" });
  await expect(note).toContainText("introduces 1 error");
  await expect(note).toContainText("main.go:8:");
  await expect(note).toContainText("undefined: greeting");

  // The Problems panel lists it under the file.
  const panel = page.getByRole("complementary", { name: "Problems" });
  const toggle = panel.getByRole("button", { name: /^Problems/ }).first();
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  const problems = panel.getByRole("list", { name: "Problems" });
  await expect(problems).toContainText("main.go");
  await expect(problems.getByRole("button", { name: /8:\d+ error undefined: greeting/ })).toBeVisible();
  // A click opens the file at that line.
  await problems.getByRole("button", { name: /8:\d+ error undefined: greeting/ }).click();
  const viewer = panel.getByRole("dialog", { name: "File main.go" });
  await expect(viewer).toContainText("line 8");
  await expect(viewer.getByRole("region", { name: "Content of main.go" })).toContainText("println(greeting())");
});
