import { test, expect } from "./harness";

const list = (id: string) => ({ toolCalls: [{ id, name: "list_dir", arguments: '{"path":"."}' }] });

test("the header warns at 80% of a budget, the run stops at 100%, and raising the limit continues", async ({ app }) => {
  const a = await app({
    approvalMode: "auto",
    settings: { budget: { sessionTokens: 1000 } },
    files: { "a.txt": "x" },
    script: {
      models: ["fake-model"],
      responses: [
        { text: "Looked.", usage: { promptTokens: 840, completionTokens: 10 } },
        { ...list("c1"), usage: { promptTokens: 190, completionTokens: 10 } },
        { text: "Carrying on.", usage: { promptTokens: 90, completionTokens: 10 } },
      ],
    },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  const ends = page.getByRole("note", { name: "End of turn" });

  await box.fill("look");
  await box.press("Enter");
  await expect(ends).toHaveCount(1);
  const badge = page.getByRole("status", { name: /^Budget:/ });
  await expect(badge).toHaveText(/85% of the session's token limit/);

  await box.fill("list the files");
  await box.press("Enter");
  await expect(ends).toHaveCount(2);
  await expect(ends.last()).toContainText("stopped: a budget limit was reached");
  const banner = page.getByRole("alert", { name: "Budget limit reached" });
  await expect(banner).toContainText("the session's token limit (1,000 tokens) is reached: 1,050 tokens used");
  await expect(badge).toHaveText(/105% of the session's token limit/);

  await banner.getByRole("button", { name: /Raise the session's token limit for this session and continue/ }).click();
  await expect(ends).toHaveCount(3);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Carrying on.");
  await expect(ends.last()).toContainText("completed");
  await expect(banner).toHaveCount(0);
  // 1,150 of the raised 2,050: under 80%, no warning.
  await expect(badge).toHaveCount(0);
  expect(await a.modelViolations()).toEqual([]);
});
