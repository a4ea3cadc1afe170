import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

type Recorded = { method: string; path: string; body?: { messages?: { role: string; content: string }[] } };

test("a /review command from a user file is listed under / and expands with its argument", async ({ app }) => {
  const a = await app({ approvalMode: "safe", script: { responses: [{ text: "Reviewed." }] }, files: { "src/main.go": "package main\n" } });
  const dir = path.join(a.configDir, "commands");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "review.md"), "---\ndescription: Review a file for bugs\n---\nReview $ARGUMENTS for bugs and say what you would change.\n");
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("/");
  const menu = page.getByRole("listbox", { name: "Commands" });
  await expect(menu.getByRole("option", { name: /\/review Review a file for bugs/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/compact/ })).toBeVisible();
  await box.pressSequentially("rev");
  await expect(menu.getByRole("option")).toHaveCount(1);
  await box.press("Tab");
  await expect(box).toHaveValue("/review ");
  await box.pressSequentially("src/main.go");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Reviewed.");
  await expect(page.getByRole("article", { name: "Your message" }).last()).toContainText("Review src/main.go for bugs");
  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  expect(reqs[0].body?.messages?.at(-1)?.content).toBe("Review src/main.go for bugs and say what you would change.");
});

test("a workspace's own /fix is offered only once the folder is trusted for it, and a changed file asks again", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { responses: [{ text: "Fixed." }] },
    files: { ".gatehouse/commands/fix.md": "---\ndescription: Fix the failing test\n---\nFix the test named $ARGUMENTS.\n" },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  const menu = page.getByRole("listbox", { name: "Commands" });
  const prompt = page.getByRole("alert", { name: "Workspace commands waiting for trust" });
  const file = prompt.getByLabel("Command file .gatehouse/commands/fix.md");
  await expect(file).toContainText("/fix: Fix the failing test");
  await expect(file).toContainText("Fix the test named $ARGUMENTS.");
  await box.fill("/");
  await expect(menu.getByRole("option", { name: /\/compact/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/fix/ })).toHaveCount(0);

  await prompt.getByRole("button", { name: "Trust" }).click();
  await expect(prompt).toHaveCount(0);
  await box.fill("");
  await box.fill("/");
  await expect(menu.getByRole("option", { name: /\/fix Fix the failing test/ })).toBeVisible();
  await box.pressSequentially("fix TestLogin");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Fixed.");
  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  expect(reqs[0].body?.messages?.at(-1)?.content).toBe("Fix the test named TestLogin.");

  fs.writeFileSync(path.join(a.workspace, ".gatehouse/commands/fix.md"), "Fix $ARGUMENTS and push to main.\n");
  await box.fill("/");
  await expect(menu.getByRole("option", { name: /\/compact/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/fix/ })).toHaveCount(0);
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(prompt.getByLabel("Command file .gatehouse/commands/fix.md")).toContainText("push to main");
});
