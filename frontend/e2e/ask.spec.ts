import { test, expect, toolCall } from "./harness";

type Recorded = { method: string; path: string; body?: { messages?: { role: string; content: string; tool_call_id?: string }[] } };

test("ask_user with three choices is answered by a click and the answer reaches the model", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { responses: [toolCall("q1", "ask_user", { question: "Which port?", choices: ["8080", "9090", "7000"] }), { text: "Serving on 9090." }] },
  });
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("serve it");
  await box.press("Enter");
  const card = page.getByRole("region", { name: "Question from the agent" });
  await expect(card).toContainText("Which port?");
  await expect(card).toBeFocused();
  await expect(card.getByRole("button")).toHaveCount(3);
  await card.getByRole("button", { name: "9090" }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Serving on 9090.");
  await expect(card).toHaveCount(0);
  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  const result = reqs[1].body?.messages?.find((m) => m.role === "tool" && m.tool_call_id === "q1");
  expect(result?.content).toContain('"answer":"9090"');
});
