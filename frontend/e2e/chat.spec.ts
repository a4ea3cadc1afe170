import { test, expect } from "./harness";

test("a reply streams in as markdown and the turn ends with its usage", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], responses: [{ text: ["Hello ", "**there**"], usage: { promptTokens: 12, completionTokens: 2 } }] },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("hello");
  const reply = page.getByRole("article", { name: "Reply" });
  await expect(reply).toContainText("Hello");
  await expect(reply.locator("strong")).toHaveText("there");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("completed · 14 tokens");
  await expect(box).toHaveValue("");
});

test("Stop cancels a streaming reply and marks it cancelled", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], responses: [{ text: ["Hello", ", I am still"], hang: true }] },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("tell me a long story");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply, streaming" })).toContainText("Hello, I am still");
  await page.getByRole("button", { name: "Stop" }).click();
  const reply = page.getByRole("article", { name: "Reply, cancelled" });
  await expect(reply).toContainText("Hello, I am still");
  await expect(reply.getByText("cancelled", { exact: true })).toBeVisible();
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("cancelled by you");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
});

test("a tool call shows as a card, then the answer follows", async ({ app }) => {
  const { page } = await app({
    approvalMode: "auto",
    files: { "README.md": "# Hello from the README\n" },
    script: {
      models: ["fake-model"],
      responses: [
        { text: "Let me read it.", toolCalls: [{ id: "call_1", name: "read_file", arguments: ['{"path":', '"README.md"}'] }] },
        { text: "The README says hello." },
      ],
    },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("what does the README say?");
  await box.press("Enter");
  const card = page.getByRole("group", { name: "read_file README.md, done" });
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: /read_file/ }).click();
  await expect(card).toContainText("# Hello from the README");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The README says hello.");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("completed");
});

test("a message typed during a turn waits as queued and runs when the turn stops", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], responses: [{ text: ["Working", " on it"], hang: true }, { text: "Second answer." }] },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("first");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply, streaming" })).toContainText("Working on it");
  await box.fill("second");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Your message, queued" })).toContainText("second");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("article", { name: "Reply", exact: true })).toContainText("Second answer.");
  await expect(page.getByRole("article", { name: "Your message, queued" })).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Your message", exact: true })).toHaveCount(2);
  await expect(page.getByRole("note", { name: "End of turn" })).toHaveCount(2);
});

test("the chat follows a long streaming reply to its end", async ({ app }) => {
  const lines = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of the story.\n\n`);
  const { page } = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], responses: [{ text: lines, delayMs: 5 }] },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("a long one");
  await box.press("Enter");
  await expect(page.getByRole("note", { name: "End of turn" })).toBeInViewport();
  await expect(page.getByText("Line 120 of the story.")).toBeInViewport();
});
