import { test, expect } from "./harness";

test("the frame shows the workspace and keeps the approval mode in the backend", async ({ app }) => {
  const { page, workspace } = await app({ approvalMode: "manual" });
  const name = workspace.split("/").pop()!;
  await expect(page.getByRole("button", { name: `Workspace ${name}, choose another folder` })).toBeVisible();
  const mode = page.getByRole("combobox", { name: "Approval mode" });
  await expect(mode).toHaveValue("manual");
  await mode.selectOption("auto");
  // The class follows the state the backend returned: the mode is saved there.
  await expect(mode).toHaveClass(/mode-auto/);
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Approval mode" })).toHaveValue("auto");
});
