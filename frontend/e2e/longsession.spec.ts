// A long saved session in the window (issue 44): resumed, it shows its last
// turn; find reaches a card far from the rows the window has rendered.
import { test, expect } from "./harness";
import { logItems, writeLongSession } from "./longSession";

test("find in a 1,000-call session reaches a word only in the folded output of an early card: it scrolls in, unfolds and is highlighted", async ({ app }) => {
  const a = await app({ approvalMode: "safe" });
  const items = logItems(writeLongSession(a, "long-1", 1000, "zanzibar-7"));
  const first = items.findIndex((it) => it.tool === "bash");
  const { page } = a;
  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menuitem", { name: /Step 1: make route 0/ }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Route 249 now refuses an empty name");
  // The window holds only the rows near the end.
  const rows = page.locator("[role=log] .row");
  expect(await rows.count()).toBeLessThan(60);
  await expect(page.locator(`[role=log] .row[data-index="${first}"]`)).toHaveCount(0);

  await page.getByRole("textbox", { name: "Message" }).blur();
  await page.keyboard.press("Control+f");
  const find = page.getByRole("searchbox", { name: "Find in conversation" });
  await find.fill("Zanzibar-7");
  await expect(page.getByRole("search").getByRole("status")).toHaveText("1 of 1");

  const row = page.locator(`[role=log] .row[data-index="${first}"]`);
  const card = row.getByRole("group", { name: /^bash go test/ });
  await expect(card.getByRole("button", { expanded: true })).toBeVisible();
  await expect.poll(() =>
    page.evaluate((first) => {
      const h = (CSS as unknown as { highlights: Map<string, Iterable<Range>> }).highlights.get("find-current");
      const body = document.querySelector(`[role=log] .row[data-index="${first}"] .tool-body`);
      return h ? [...h].map((r) => `${r.toString()}@${!!body?.contains(r.startContainer)}`) : [];
    }, first),
  ).toEqual(["zanzibar-7@true"]);
  // The match is on screen, inside the conversation's visible part.
  await expect.poll(() =>
    page.evaluate(() => {
      const h = (CSS as unknown as { highlights: Map<string, Iterable<Range>> }).highlights.get("find-current");
      const r = h ? [...h][0].getBoundingClientRect() : null;
      const log = document.querySelector("[role=log]")!.getBoundingClientRect();
      return !!r && r.top >= log.top && r.bottom <= log.bottom;
    }),
  ).toBe(true);
});
