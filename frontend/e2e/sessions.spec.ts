import { test, expect } from "./harness";

type ChatRequest = { path: string; body?: { messages: Array<{ role: string; content?: unknown; tool_calls?: Array<{ id: string }>; tool_call_id?: string }> } };

test("a read_file turn comes back after a restart: resume it from the sessions menu and go on", async ({ app }) => {
  const a = await app({
    approvalMode: "safe", // read_file runs without asking
    files: { "README.md": "# Hello from the README\n" },
    script: {
      models: ["fake-model"],
      responses: [
        { text: "Let me read it.", toolCalls: [{ id: "call_1", name: "read_file", arguments: ['{"path":', '"README.md"}'] }],
          usage: { promptTokens: 900, completionTokens: 5 } },
        { text: "The README says hello.", usage: { promptTokens: 51_200, completionTokens: 5 } },
        { text: "You asked what the README says.", usage: { promptTokens: 52_000, completionTokens: 7 } },
      ],
    },
  });
  const { page } = a;
  const gauge = page.getByRole("meter", { name: "Context window" });
  // Before the first request it says the window the next one will have (this server reports none: the default).
  await expect(gauge).toHaveAttribute("aria-valuetext", "no request yet; a window of 128,000 tokens");
  await expect(gauge).toContainText("128K window");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("what does the README say?");
  await box.press("Enter");
  const card = page.getByRole("group", { name: "read_file README.md, done" });
  await card.getByRole("button", { name: /read_file/ }).click();
  await expect(card).toContainText("# Hello from the README");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The README says hello.");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("completed");
  await expect(gauge).toHaveAttribute("aria-valuenow", "40");

  // A new backend on the same folders reopens the tab open at quit, its session resumed.
  await a.restart();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("what does the README say?");

  await page.getByRole("button", { name: "Sessions" }).click();
  const menu = page.getByRole("menu", { name: "Sessions" });
  const saved = menu.getByRole("menuitem", { name: /what does the README say\?.*1 turn, open now/ });
  await expect(saved).toBeVisible();
  await saved.click();
  await expect(menu).toHaveCount(0);

  // The old transcript is back: the message, the tool card with its excerpt, the answer, the gauge.
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("what does the README say?");
  const restored = page.getByRole("group", { name: "read_file README.md, done" });
  await restored.getByRole("button", { name: /read_file/ }).click();
  await expect(restored).toContainText("# Hello from the README");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The README says hello.");
  await expect(gauge).toHaveAttribute("aria-valuenow", "40");

  // A new message continues it, and the model gets the history back.
  await box.fill("what did I ask?");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("You asked what the README says.");
  await expect(page.getByRole("note", { name: "End of turn" })).toHaveCount(2);

  const chats = ((await a.modelRequests()) as ChatRequest[]).filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats).toHaveLength(3);
  const msgs = chats[2].body!.messages.filter((m) => m.role !== "system");
  expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
  expect(JSON.stringify(msgs[0].content)).toContain("what does the README say?");
  expect(msgs[1].tool_calls?.[0].id).toBe("call_1");
  expect(msgs[2].tool_call_id).toBe("call_1");
  expect(JSON.stringify(msgs[2].content)).toContain("Hello from the README");
  expect(JSON.stringify(msgs[3].content)).toContain("The README says hello.");
  expect(JSON.stringify(msgs[4].content)).toContain("what did I ask?");
  expect(await a.modelViolations()).toEqual([]);

  // The menu shows it as the open session, now with two turns.
  await page.getByRole("button", { name: "Sessions" }).click();
  await expect(menu.getByRole("menuitem", { name: /what does the README say\?.*2 turns, open now/ })).toBeVisible();
});

test("New session empties the chat; the old one stays in the menu", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], responses: [{ text: "First answer." }] },
  });
  await page.getByRole("button", { name: "Sessions" }).click();
  await expect(page.getByText("No saved sessions in this folder yet. Send a message to start one.")).toBeVisible();
  await page.keyboard.press("Escape");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("first question");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("First answer.");

  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menuitem", { name: "+ New session" }).click();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  await page.getByRole("button", { name: "Sessions" }).click();
  await expect(page.getByRole("menuitem", { name: /first question.*1 turn$/ })).toBeVisible();
});
