import { test, expect } from "./harness";
import type { Page } from "@playwright/test";

// A script in which the model starts one process with bash, then answers.
function startScript(command: string) {
  const args = JSON.stringify({ action: "start", command });
  return { responses: [{ toolCalls: [{ id: "c1", name: "bash", arguments: args }] }, { text: "started" }] };
}

/** Starts a turn without the message box (the chat side may still be in the works). */
async function submit(page: Page, text: string) {
  await page.evaluate((t) => (window as any).go.gui.App.Submit({ text: t }), text);
}

/** The text of the panel terminal's visible rows. */
function terminalRows(page: Page) {
  return page.getByRole("region", { name: /^Output of / }).locator(".xterm-rows");
}

test("a process's lines appear live in the panel's terminal", async ({ app }) => {
  const { page } = await app({
    approvalMode: "auto",
    script: startScript("for i in $(seq 1 40); do echo line $i; sleep 0.1; done"),
  });
  const panel = page.getByRole("complementary", { name: "Processes" });
  await panel.getByRole("button", { name: "Processes" }).click();
  await expect(panel.getByText("No processes yet", { exact: false })).toBeVisible();
  await submit(page, "start it");

  // The new process is selected and its output shown.
  const item = panel.getByRole("button", { name: /for i in/ });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute("aria-current", "true");
  await expect(item).toContainText("running");
  await expect(terminalRows(page)).toContainText("line 3");
  // Still streaming: later lines arrive while it runs.
  await expect(terminalRows(page)).toContainText("line 12");
  await expect(item).toContainText("exited, exit 0", { timeout: 20_000 });
  await expect(terminalRows(page)).toContainText("line 40");
});

test("typing into cat echoes it; Stop ends it with an exit code", async ({ app }) => {
  const { page } = await app({ approvalMode: "auto", script: startScript("cat") });
  const panel = page.getByRole("complementary", { name: "Processes" });
  await expect(panel.getByRole("button", { name: "Processes" })).toHaveAttribute("aria-expanded", "false");
  await submit(page, "run cat");
  // The panel opens by itself when a process starts.
  await expect(panel.getByRole("button", { name: "Processes" })).toHaveAttribute("aria-expanded", "true");
  const item = panel.getByRole("button", { name: /^cat/ });
  await expect(item).toContainText("running");

  const view = page.getByRole("region", { name: "Output of cat" });
  await view.locator(".xterm").click();
  await page.keyboard.type("ping");
  await page.keyboard.press("Enter");
  // The terminal echoes the typed line, then cat prints it back: two lines.
  await expect(terminalRows(page)).toContainText(/ping\s*ping/);

  await view.getByRole("button", { name: "Stop" }).click();
  await expect(item).toContainText(/stopped, exit \d+/);
  await expect(view.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(view).toContainText("output is read-only");

  // Restart runs cat again in the same folder, as a new process the panel selects.
  await view.getByRole("button", { name: "Restart" }).click();
  await expect(panel.getByRole("button", { name: /^cat/ })).toHaveCount(2);
  await expect(panel.getByRole("button", { name: /^cat/ }).filter({ hasText: "running" })).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Output of cat" }).getByRole("button", { name: "Stop" })).toBeVisible();
});

test("the page stays responsive while a process floods output", async ({ app }) => {
  const { page } = await app({ approvalMode: "auto", script: startScript("yes 'flood flood flood flood flood flood flood flood'") });
  await submit(page, "flood");
  const view = page.getByRole("region", { name: /^Output of yes/ });
  await expect(view.locator(".xterm-rows")).toContainText("flood flood");
  // While the flood goes on, the page still takes typing and clicks (the
  // terminal is fed in per-frame batches). Behaviour only: no timing asserted.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("still typing");
  await expect(box).toHaveValue("still typing");
  await expect(view.locator(".xterm-rows")).toContainText("flood flood");
  await view.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: /^yes/ })).toContainText(/stopped, exit \d+/);
});
