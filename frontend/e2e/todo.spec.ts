import { test, expect, toolCall } from "./harness";

const list = (...s: [string, string][]) => ({ todos: s.map(([content, status]) => ({ content, status })) });

test("the checklist above the composer follows the model's todo_write calls live", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: {
      responses: [
        toolCall("t1", "todo_write", list(["Read the code", "in_progress"], ["Write the test", "pending"])),
        { ...toolCall("t2", "todo_write", list(["Read the code", "done"], ["Write the test", "in_progress"])), delayMs: 1500 },
        { text: "Both done.", delayMs: 1500 },
      ],
    },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("two steps");
  await box.press("Enter");
  const todo = page.getByRole("region", { name: "Todo list" });
  await expect(todo.getByRole("listitem", { name: "Read the code: in progress" })).toBeVisible();
  await expect(todo).toContainText("0 of 2 done");
  await expect(todo.getByRole("listitem", { name: "Read the code: done" })).toBeVisible();
  await expect(todo.getByRole("listitem", { name: "Write the test: in progress" })).toBeVisible();
  await expect(todo).toContainText("1 of 2 done");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Both done.");
  await expect(todo.getByRole("button", { name: /Todo list · 1 of 2 done/ })).toHaveAttribute("aria-expanded", "false");
});
