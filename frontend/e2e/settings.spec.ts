import { test, expect } from "./harness";

test("first run: the settings screen tests the connection, then saves", async ({ app }) => {
  const { page, modelURL } = await app({
    approvalMode: "safe",
    firstRun: true,
    script: { models: ["fake-model"], apiKey: "sk-e2e", responses: [] },
  });
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
});
