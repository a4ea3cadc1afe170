import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

type ModelRequest = { method: string; path: string; body?: { model?: string } };

test("the header's model menu lists the server's models, and the next turn asks for the one chosen", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { models: ["fake-model", "other-model"], responses: [{ text: "Hello from the other model" }] },
  });
  const { page } = a;
  const button = page.getByRole("button", { name: "Model fake-model" });
  await button.click();
  const menu = page.getByRole("menu", { name: "Models" });
  const items = menu.getByRole("menuitemradio");
  await expect(items).toHaveText(["✓fake-model", "other-model"]);
  await expect(menu.getByRole("menuitemradio", { name: "fake-model" })).toHaveAttribute("aria-checked", "true");
  await expect(menu.getByRole("menuitemradio", { name: "fake-model" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Model other-model" })).toBeFocused();

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("Hello from the other model");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("completed");

  const reqs = (await a.modelRequests()) as ModelRequest[];
  const chats = reqs.filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats.map((r) => r.body?.model)).toEqual(["other-model"]);
  expect(reqs.some((r) => r.method === "GET" && r.path.endsWith("/v1/models"))).toBe(true);
  expect(await a.modelViolations()).toEqual([]);

  // The choice was saved: the menu shows it checked when opened again.
  await page.getByRole("button", { name: "Model other-model" }).click();
  await expect(menu.getByRole("menuitemradio", { name: "other-model" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
});

test("each turn is priced at the model that ran it: a model switched mid-session keeps the first turn's cost", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { models: ["fake-model", "other-model"], responses: [
      { text: "One.", usage: { promptTokens: 1000, completionTokens: 0 } },
      { text: "Two.", usage: { promptTokens: 1000, completionTokens: 0 } },
    ] },
  });
  // Saved prices per million input tokens: $10 for fake-model, $1,000 for other-model.
  const file = path.join(a.configDir, "settings.json");
  const saved = JSON.parse(fs.readFileSync(file, "utf8"));
  fs.writeFileSync(file, JSON.stringify({ ...saved, prices: {
    "fake-model": { inputPerMTok: 10, outputPerMTok: 0 }, "other-model": { inputPerMTok: 1000, outputPerMTok: 0 } } }));
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("first");
  await box.press("Enter");
  const ends = page.getByRole("note", { name: "End of turn" });
  await expect(ends.first()).toContainText("$0.01");

  await page.getByRole("button", { name: "Model fake-model" }).click();
  await page.getByRole("menu", { name: "Models" }).getByRole("menuitemradio", { name: "other-model" }).click();
  await box.fill("second");
  await box.press("Enter");
  await expect(ends.nth(1)).toContainText("$1.00");
  await expect(ends.first()).toContainText("$0.01");
  await expect(page.getByRole("status", { name: /^This session: 2,000 input and 0 output tokens, \$1\.01/ })).toBeVisible();
});
