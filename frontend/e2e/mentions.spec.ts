import { test, expect } from "./harness";

type Recorded = { method: string; path: string; body?: { messages?: { role: string; content: string }[] } };

test("@src/ma completes to src/main.go and the file's text is in the recorded request", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { responses: [{ text: "Read it." }] },
    files: { "src/main.go": "package main\n\nfunc main() { println(\"mentioned\") }\n", "src/other.go": "package main\n" },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("explain ");
  await box.pressSequentially("@src/ma");
  const list = page.getByRole("listbox", { name: "Files" });
  await expect(list.getByRole("option").first()).toHaveText("src/main.go");
  await box.press("Tab");
  await expect(box).toHaveValue("explain @src/main.go ");
  await expect(page.getByRole("list", { name: "Attached files" })).toContainText("src/main.go");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Read it.");
  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  const sent = reqs[0].body?.messages?.at(-1)?.content ?? "";
  expect(sent).toContain("explain @src/main.go");
  expect(sent).toContain('<file path="src/main.go">');
  expect(sent).toContain('println("mentioned")');
});

test("@ lists an earlier session of this workspace; mentioning it attaches its digest to the message", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { responses: [{ text: "The cache key omits the locale." }, { text: "I will add the locale." }] },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("why is the cache stale?");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The cache key omits the locale.");
  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menuitem", { name: "+ New session" }).click();
  await expect(page.getByRole("article", { name: "Reply" })).toHaveCount(0);

  await box.fill("fix what ");
  await box.pressSequentially("@cache");
  const list = page.getByRole("listbox", { name: "Files" });
  await expect(list.getByRole("option").first()).toHaveText("Session: why is the cache stale?");
  await box.press("Tab");
  await expect(page.getByRole("list", { name: "Attached files" })).toContainText("Session: why is the cache stale?");
  await box.pressSequentially("found");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("I will add the locale.");
  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  const sent = reqs[1].body?.messages?.at(-1)?.content ?? "";
  expect(sent).toMatch(/^fix what @session:\S+ found/);
  expect(sent).toContain("<session id=");
  expect(sent).toContain("User: why is the cache stale?\nAssistant: The cache key omits the locale.");
  // The new session's request carries nothing else of the old one.
  expect(reqs[1].body?.messages?.filter((m) => m.role === "user")).toHaveLength(1);
});
