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
