import { test, expect, toolCall } from "./harness";

const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens });

test("with a subagent that used tokens, the header total equals parent + child", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    files: { "a.txt": "alpha\n" },
    script: {
      responses: [
        { ...toolCall("c1", "delegate_explore", { task: "what does a.txt say?" }), usage: usage(100, 10) },
        { text: "It says alpha.", usage: usage(1000, 100) },
        { text: "a.txt says alpha.", usage: usage(200, 20) },
      ],
    },
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("look at a.txt");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("a.txt says alpha.");
  // Parent: 300 in + 30 out; child: 1,000 in + 100 out.
  await expect(page.getByRole("status", { name: /^This session: 1,300 input and 130 output tokens/ })).toBeVisible();
});
