import fs from "node:fs";
import path from "node:path";
import { test, expect, send } from "./harness";

test.use({ viewport: { width: 1280, height: 800 } });

test("at 1280×800 with every panel open the chat keeps a 560 px text column; a dragged width survives a restart", async ({ app }) => {
  const a = await app({ approvalMode: "safe", files: { "a.txt": "alpha\n" }, script: { models: ["fake-model"], responses: [{ text: "A reply long enough to fill a line of the conversation. ".repeat(6) }] } });
  const { page } = a;
  await send(page, "hello");
  const reply = page.getByRole("article", { name: "Reply" }).last();
  await expect(reply).toContainText("A reply long enough");

  const panel = (name: string) => page.getByRole("complementary", { name });
  const toggle = (name: string) => panel(name).getByRole("button", { name: new RegExp(`^${name}`) });
  for (const name of ["Files", "Servers", "Processes"]) {
    await expect(toggle(name)).not.toHaveAttribute("title"); // no tooltip over the panel's own text
    await toggle(name).click();
    await expect(panel(name).locator(".side-content")).toBeVisible();
  }
  // The latest opened shows; those without room fold to their rail, named so.
  await expect(toggle("Files")).toHaveAccessibleName(/^Files\W+folded for room$/);
  await expect(toggle("Files")).toHaveAttribute("aria-expanded", "false");
  const textWidth = async () => (await reply.boundingBox())!.width;
  expect(await textWidth()).toBeGreaterThanOrEqual(560);

  // A folded rail is a tab: it brings its panel forward, and the chat still keeps its room.
  await toggle("Files").click();
  await expect(toggle("Files")).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("tree", { name: "Workspace files" })).toBeVisible();
  expect(await textWidth()).toBeGreaterThanOrEqual(560);
  await toggle("Processes").click(); // folded by Files: forward again
  await expect(toggle("Processes")).toHaveAttribute("aria-expanded", "true");

  // Drag the Processes panel's inner edge 60 px to the left: it grows by 60.
  const before = (await panel("Processes").boundingBox())!.width;
  const edge = (await page.getByRole("separator", { name: "Resize processes" }).boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x - 30, edge.y + edge.height / 2, { steps: 4 });
  await page.mouse.move(edge.x - 60 + edge.width / 2, edge.y + edge.height / 2, { steps: 4 });
  await page.mouse.up();
  const after = Math.round((await panel("Processes").boundingBox())!.width);
  expect(after).toBe(Math.round(before) + 60);
  expect(await textWidth()).toBeGreaterThanOrEqual(560);
  const saved = () => JSON.parse(fs.readFileSync(path.join(a.configDir, "settings.json"), "utf8")).panelWidths?.processes;
  await expect.poll(saved).toBe(after);

  await a.restart();
  await toggle("Processes").click();
  await expect(panel("Processes").locator(".side-content")).toBeVisible();
  expect(Math.round((await panel("Processes").boundingBox())!.width)).toBe(after);
});
