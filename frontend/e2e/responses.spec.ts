import { test, expect } from "./harness";

type ModelRequest = { path: string; body?: { input?: Array<{ type?: string; role?: string; call_id?: string; output?: unknown }>; store?: boolean } };

test("switched to the Responses API in settings, a tool turn runs over /responses", async ({ app }) => {
  const a = await app({
    approvalMode: "safe", // read_file runs without asking
    files: { "README.md": "# Hello from the README\n" },
    script: {
      models: ["fake-model"],
      responses: [
        { text: "Let me read it.", toolCalls: [{ id: "call_1", name: "read_file", arguments: ['{"path":', '"README.md"}'] }] },
        { text: ["It says ", "**hello**", "."], usage: { promptTokens: 40, completionTokens: 4 } },
      ],
    },
  });
  const { page } = a;

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByLabel("API", { exact: true }).selectOption("responses");
  await expect(page.getByText("OpenAI's Responses API (/responses).")).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("✓ Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("what does the README say?");
  await box.press("Enter");
  const card = page.getByRole("group", { name: "read_file README.md, done" });
  await card.getByRole("button", { name: /read_file/ }).click();
  await expect(card).toContainText("# Hello from the README");
  const reply = page.getByRole("article", { name: "Reply" }).last();
  await expect(reply.locator("strong")).toHaveText("hello");
  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("completed · ");

  const turns = ((await a.modelRequests()) as ModelRequest[]).filter((r) => r.body?.input);
  expect(turns.map((r) => r.path.replace(/.*\/v1/, ""))).toEqual(["/responses", "/responses"]);
  expect(turns.every((r) => r.body!.store === false)).toBe(true);
  const input = turns[1].body!.input!;
  const call = input.find((i) => i.type === "function_call");
  const output = input.find((i) => i.type === "function_call_output");
  expect(call?.call_id).toBe("call_1");
  expect(output?.call_id).toBe("call_1");
  expect(JSON.stringify(output?.output)).toContain("Hello from the README");
  expect(await a.modelViolations()).toEqual([]);
});
