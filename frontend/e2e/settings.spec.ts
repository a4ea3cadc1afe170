import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

test("first run: the settings screen tests the connection, then saves", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    firstRun: true,
    script: { models: ["fake-model"], apiKey: "sk-e2e", responses: [{ text: "Hello." }] },
  });
  const { page, modelURL } = a;
  await expect(page.getByRole("heading", { name: "Set up a model" })).toBeVisible();
  const url = page.getByLabel("Base URL");
  const key = page.getByLabel("API key");
  const model = page.getByLabel("Model", { exact: true });
  const status = page.getByRole("status");
  const testButton = page.getByRole("button", { name: "Test connection" });

  await url.fill(modelURL!);
  await key.fill("sk-e2e");
  await model.fill("fake-model");
  await testButton.click();
  await expect(status).toContainText("Reachable");

  await key.fill("sk-wrong");
  await testButton.click();
  await expect(status).toContainText("Key rejected");

  await url.fill("http://127.0.0.1:9/v1");
  await key.fill("sk-e2e");
  await testButton.click();
  await expect(status).toContainText("Unreachable");

  await url.fill(modelURL!);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByText("A key is saved. Leave this empty to keep it.")).toBeVisible();
  const contextTab = page.getByRole("tab", { name: "Context" });
  await contextTab.click();

  // The context window and compaction thresholds: a bad pair is refused at
  // its field, a good one is saved, is there when Settings is reopened, and
  // the next session uses the window (this server does not report one).
  const windowField = page.getByLabel("Context window (tokens)");
  const clear = page.getByLabel("Clear old tool output at (% of the window)");
  const summary = page.getByLabel("Summarise older turns at (% of the window)");
  await expect(windowField).toHaveValue("");
  await expect(summary).toHaveAttribute("placeholder", "85");
  await windowField.fill("20000");
  await clear.fill("90");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(summary).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Summarising older turns must start above clearing old tool output (90%), which is tried first.")).toBeVisible();
  await summary.fill("95");
  await expect(summary).not.toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("✓ Saved.")).toBeVisible();
  const saved = JSON.parse(fs.readFileSync(path.join(a.configDir, "settings.json"), "utf8"));
  expect(saved).toMatchObject({ contextWindow: 20_000, microCompactAt: 90, compactAt: 95 });

  await page.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await contextTab.click();
  await expect(windowField).toHaveValue("20000");
  await expect(clear).toHaveValue("90");
  await expect(summary).toHaveValue("95");
  await page.getByRole("button", { name: "Close" }).click();

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await expect(page.getByRole("note", { name: "End of turn" })).toHaveCount(1);
  const gauge = page.getByRole("meter", { name: "Context window" });
  await expect(gauge).toHaveAttribute("title", /of the model's 20,000 tokens \(window from Settings\)/);
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await contextTab.click();
  await expect(page.getByText("This session: 20,000 tokens, from Settings.")).toBeVisible();
});
