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

test("the page leads its font stacks with the families the backend says the stacks resolve to", async ({ app }) => {
  const { page } = await app({ approvalMode: "safe" });
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  const [sans, mono, body] = await page.evaluate(() => {
    const root = getComputedStyle(document.documentElement);
    return [root.getPropertyValue("--font-sans"), root.getPropertyValue("--font-mono"), getComputedStyle(document.body).fontFamily];
  });
  // The resolved family first, then the stack as it always was.
  expect(sans).toMatch(/^"[^"]+", system-ui, -apple-system, "Segoe UI", "Cantarell", "Noto Sans", "DejaVu Sans", sans-serif$/);
  expect(mono).toMatch(/^"[^"]+", ui-monospace, "SFMono-Regular", "JetBrains Mono", "DejaVu Sans Mono", "Liberation Mono", monospace$/);
  expect(body.startsWith(sans.slice(0, sans.indexOf(",")))).toBe(true);
});
