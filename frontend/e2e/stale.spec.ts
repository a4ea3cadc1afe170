import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

test("editing a file while its approval dialog is open shows the stale warning and blocks approve until re-preview", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "src/app.ts": "one\ntwo\n" },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "apply_patch", { patch: ["*** Begin Patch", "*** Update File: src/app.ts", "@@", "-one", "+ONE", "*** End Patch"].join("\n") }),
        { text: "Patched the fresh file." },
      ],
    },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("shout the first line");
  await box.press("Enter");
  const dialog = page.getByRole("dialog", { name: "apply_patch wants to change src/app.ts" });
  await expect(dialog).toBeVisible();
  const diff = dialog.getByRole("region", { name: "Changes to src/app.ts" });
  await expect(diff).toContainText("ONE");
  await expect(diff).toContainText("@@ -1 +1 @@");
  const approve = dialog.getByRole("button", { name: "Approve once" });
  await expect(approve).toBeEnabled();

  // Someone edits the file while the dialog is open.
  fs.writeFileSync(path.join(workspace, "src", "app.ts"), "zero\none\ntwo\n");
  await expect(dialog.getByText("⚠ src/app.ts changed on disk since this preview")).toBeVisible();
  await expect(approve).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Approve for session" })).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Reject" })).toBeEnabled();
  await page.keyboard.press("Control+Enter");
  await expect(dialog).toBeVisible();

  await dialog.getByRole("button", { name: "Re-preview" }).click();
  await expect(dialog.getByText(/changed on disk since this preview/)).toHaveCount(0);
  // The new base: a line was added above, so the change moved to line 2.
  await expect(diff).toContainText("@@ -2 +2 @@");
  await expect(approve).toBeEnabled();
  await approve.click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Patched the fresh file.");
  expect(fs.readFileSync(path.join(workspace, "src", "app.ts"), "utf8")).toBe("zero\nONE\ntwo\n");
});
