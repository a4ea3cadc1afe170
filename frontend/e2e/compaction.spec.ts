import { test, expect } from "./harness";

type Recorded = { method: string; path: string; promptTokens?: number; refused?: boolean; rule?: number; body?: { messages?: { role: string; content: string }[] } };

const SUMMARY = "## Goal\nRead the **long** answers back.\n\n## Next steps\nAnswer the question.";
const summaryRule = { lastContains: "checkpoint summary", response: { text: SUMMARY } };
const long = (word: string) => `${word} `.repeat(8400 / (word.length + 1)).trim();

test("the gauge fills, the context is compacted on its own, and the marker opens the summary", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: {
      models: ["fake-model"],
      // The server reports a 12,000-token window, and refuses past it by its own count.
      modelMeta: { "fake-model": { max_model_len: 12_000 } },
      contextWindow: 12_000,
      when: [summaryRule],
      responses: [{ text: long("alpha") }, { text: long("bravo") }, { text: "All read." }, { text: "Still with you." }],
    },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  const gauge = page.getByRole("meter", { name: "Context window" });
  const send = async (text: string, turns: number) => {
    await box.fill(text);
    await box.press("Enter");
    await expect(page.getByRole("note", { name: "End of turn" })).toHaveCount(turns);
  };
  await send("hello", 1);
  await send("go on", 2);
  await expect(gauge).toHaveAttribute("title", /window as the model server reports it/);
  const full = Number(await gauge.getAttribute("aria-valuenow"));
  expect(full).toBeGreaterThanOrEqual(55);

  await send("and now?", 3);
  const marker = page.getByRole("note", { name: "Compaction" });
  await expect(marker).toContainText("the context filled up, so the conversation was compacted");
  await marker.getByRole("button", { name: "Show the summary" }).click();
  const summary = marker.getByRole("region", { name: "Checkpoint summary" });
  await expect(summary.locator("strong")).toHaveText("long");
  await expect(summary).toContainText("Answer the question.");
  // Compaction freed the long turns: what is left is the system prompt and
  // the tools (a floor that grows with the tool surface) plus the summary.
  expect(Number(await gauge.getAttribute("aria-valuenow"))).toBeLessThan(full - 10);
  await expect(gauge).toHaveAttribute("title", /Older turns are sent as a summary/);

  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST");
  expect(reqs.filter((r) => r.refused)).toEqual([]);
  for (const r of reqs) expect(r.promptTokens).toBeLessThan(10_000);
  const last = JSON.stringify(reqs[reqs.length - 1].body);
  expect(last).toContain("Read the **long** answers back.");
  expect(last).not.toContain("alpha alpha");
  expect(reqs.filter((r) => r.rule === 1)).toHaveLength(1);

  // Resumed after a restart: the whole conversation and the marker are back,
  // and the model is sent the summary, not the older turns.
  await a.restart();
  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menu", { name: "Sessions" }).getByRole("menuitem", { name: /hello.*3 turns/ }).click();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(3);
  await expect(page.getByRole("article", { name: "Reply" }).first()).toContainText("alpha alpha");
  const restored = page.getByRole("note", { name: "Compaction" });
  await restored.getByRole("button", { name: "Show the summary" }).click();
  await expect(restored.getByRole("region", { name: "Checkpoint summary" })).toContainText("Answer the question.");
  await send("still there?", 4);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Still with you.");
  const after = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST");
  const resumed = JSON.stringify(after[after.length - 1].body);
  expect(resumed).toContain("Read the **long** answers back.");
  expect(resumed).toContain("and now?");
  expect(resumed).not.toContain("alpha alpha");
  expect(await a.modelViolations()).toEqual([]);
});

test("/compact compacts by hand, and the compaction can be undone before the next turn", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], when: [summaryRule], responses: [{ text: "Hi there." }, { text: "Again, in full." }] },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("completed");

  await box.fill("/compact");
  await box.press("Enter");
  const marker = page.getByRole("note", { name: "Compaction" });
  await expect(marker).toContainText("you compacted the conversation");
  await expect(box).toHaveValue("");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1); // /compact is not sent

  await marker.getByRole("button", { name: "Undo compaction" }).click();
  await expect(page.getByRole("note", { name: "Compaction, undone" })).toBeVisible();
  await box.fill("again");
  await box.press("Enter");
  await expect(page.getByRole("note", { name: "End of turn" })).toHaveCount(2);
  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST");
  const last = JSON.stringify(reqs[reqs.length - 1].body);
  expect(last).toContain("Hi there.");
  expect(last).not.toContain("Checkpoint");
  expect(await a.modelViolations()).toEqual([]);
});
