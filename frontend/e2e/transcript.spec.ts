// The transcript a reviewer reads: diffs on every change, who approved what,
// find, copy, retry, cost and the window's shortcuts, against the real backend.
import { test, expect } from "./harness";
import type { Page } from "@playwright/test";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
const bash = (id: string, command: string) => call(id, "bash", { action: "exec", command });

async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

test("a write_file card shows the diff it wrote, old and new line numbers in their own columns", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    files: { "a.txt": "one\ntwo\nthree\n" },
    script: { responses: [call("c1", "write_file", { path: "a.txt", content: "one\n2\nthree\nfour\n" }), { text: "Rewrote it." }] },
  });
  await send(page, "rewrite a.txt");
  const dialog = page.getByRole("dialog", { name: /write_file/ });
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("Rewrote it.");

  const card = page.getByRole("group", { name: "write_file a.txt, done" });
  await expect(card).toContainText("+2 −1");
  // Its duration is the write's run time; the time the dialog waited is said apart.
  await expect(card.getByLabel(/^took /)).toHaveAttribute("title", /^ran .+; waited .+ for your answer$/);
  await card.getByRole("button", { name: /write_file/ }).click();
  const diff = card.getByRole("group", { name: "Diff of a.txt" });
  await expect(diff.locator(".diff-del .diff-code")).toHaveText(["two"]);
  await expect(diff.locator(".diff-add .diff-code")).toHaveText(["2", "four"]);
  // The context line "three" is line 3 in both files: two numbers, side by side, apart.
  const three = diff.locator(".diff-ctx").filter({ hasText: "three" });
  const oldNo = three.locator(".diff-ln-old");
  const newNo = three.locator(".diff-ln-new");
  await expect(oldNo).toHaveText("3");
  await expect(newNo).toHaveText("3");
  const a = (await oldNo.boundingBox())!;
  const b = (await newNo.boundingBox())!;
  expect(a.width).toBeGreaterThan(15);
  expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
});

test("a call that ran under a session rule says so, and its link opens the rules at that rule", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: { responses: [bash("c1", "echo hi"), bash("c2", "echo hi"), { text: "Both ran." }] },
  });
  await send(page, "say hi twice");
  const dialog = page.getByRole("dialog", { name: /bash/ });
  await dialog.getByRole("button", { name: "Approve for session" }).click();
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("Both ran.");

  // Session rules cover exactly the command approved: the same words again.
  const cards = page.getByRole("group", { name: "bash echo hi, done" });
  await expect(cards).toHaveCount(2);
  const first = cards.nth(0);
  const second = cards.nth(1);
  await expect(first.locator(".tool-rule")).toHaveCount(0);
  await expect(second.locator(".tool-rule")).toHaveText("ran under your rule: echo hi");
  await second.getByRole("button", { name: "Show rule: echo hi" }).click();
  const rules = page.getByRole("dialog", { name: "Session rules" });
  await expect(rules).toBeVisible();
  const marked = rules.locator("li[aria-current='true']");
  await expect(marked).toContainText("exactly echo hi · exec");
  await expect(marked).toBeFocused();
});

test("find highlights a match inside a folded tool output, unfolding the card", async ({ app }) => {
  const { page } = await app({
    approvalMode: "auto",
    script: { responses: [bash("c1", "echo alpha; echo needle-$((40+2)); echo omega"), { text: "Printed three lines." }] },
  });
  await send(page, "print something");
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("Printed three lines.");
  const card = page.getByRole("group", { name: /^bash echo alpha/ });
  await expect(card.getByRole("button", { expanded: false })).toBeVisible();

  await page.getByRole("textbox", { name: "Message" }).blur();
  await page.keyboard.press("Control+f");
  const find = page.getByRole("searchbox", { name: "Find in conversation" });
  await expect(find).toBeFocused();
  await find.fill("needle-42");
  await expect(page.getByText("1 of 1")).toBeVisible();
  await expect(card.getByRole("button", { expanded: true })).toBeVisible();
  await expect.poll(() =>
    page.evaluate(() => {
      const h = (CSS as unknown as { highlights: Map<string, Iterable<Range>> }).highlights.get("find-current");
      const body = document.querySelector("[role=group] .tool-body");
      return h ? [...h].map((r) => `${r.toString()}@${!!body?.contains(r.startContainer)}`) : [];
    }),
  ).toEqual(["needle-42@true"]);
});

test("copy puts a code block's text on the window's clipboard", async ({ app }) => {
  const { page, clipboard } = await app({
    approvalMode: "auto",
    script: { responses: [{ text: "Run this:\n\n```sh\nnpm run check -- --copy-me\n```\n" }] },
  });
  await send(page, "what do I run?");
  const reply = page.getByRole("article", { name: "Reply" });
  await expect(reply).toContainText("--copy-me");
  await reply.getByRole("button", { name: "Copy code" }).click();
  await expect(reply.getByRole("button", { name: "Copy code" })).toHaveText("Copied");
  await expect.poll(clipboard).toBe("npm run check -- --copy-me");
});

test("retry sends the last turn's prompt again in place of that turn; edit puts it back in the composer", async ({ app }) => {
  const { page, modelRequests } = await app({
    approvalMode: "auto",
    script: { responses: [{ text: "First try." }, { text: "Second try." }] },
  });
  await send(page, "tell me a fact");
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("First try.");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Second try.");
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(1);
  type ChatRequest = { path: string; body?: { messages: { role: string; content?: unknown }[] } };
  const chats = ((await modelRequests()) as ChatRequest[]).filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats).toHaveLength(2);
  // The retried turn's prompt and answer are not sent again.
  const sent = chats[1].body!.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${JSON.stringify(m.content)}`);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toContain("user: ");
  expect(sent[0]).toContain("tell me a fact");

  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("tell me a fact");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
});

test("with a price set in Settings, each turn and the session show what they cost", async ({ app }) => {
  const { page } = await app({
    approvalMode: "auto",
    script: { responses: [{ text: "Costly answer.", usage: { promptTokens: 100000, completionTokens: 20000 } }] },
  });
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("textbox", { name: "Input", exact: true }).fill("3");
  await page.getByRole("textbox", { name: "Output", exact: true }).fill("15");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("✓ Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
  await send(page, "answer expensively");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("120,000 tokens (100,000 in · 20,000 out) · $0.60");
  await expect(page.getByRole("status", { name: /^This session/ })).toHaveText("120k tokens · $0.60");
});

test("shortcuts work outside text fields and do nothing while typing", async ({ app }) => {
  const { page } = await app({ approvalMode: "auto", script: { responses: [{ text: "Hello." }] } });
  const box = page.getByRole("textbox", { name: "Message" });
  await send(page, "hi");
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("Hello.");

  // Typing: the keys belong to the message box.
  await box.fill("draft");
  await box.press("Control+Comma");
  await box.press("F1");
  await box.press("Control+n");
  await expect(page.getByRole("heading", { name: "Settings" })).toHaveCount(0);
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" })).toContainText("Hello.");
  await expect(box).toHaveValue("draft");

  await box.blur();
  await page.keyboard.press("F1");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Ctrl+N");
  await expect(help).toContainText("Ctrl+L");
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);

  await page.keyboard.press("Control+l");
  await expect(box).toBeFocused();
  await box.blur();
  await page.keyboard.press("Control+n");
  await expect(page.getByRole("article", { name: "Reply" })).toHaveCount(0);
  await page.keyboard.press("Control+Comma");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
});
