import { test, expect, toolCall } from "./harness";

type Recorded = { method: string; path: string; body?: { messages?: { role: string; content: string }[]; tools?: { function: { name: string } }[] } };

const PLAN = "## Steps\n1. Add **hello.txt** saying hi\n2. Read it back";

test("plan mode: the plan card approved into safe starts the next turn with the plan", async ({ app }) => {
  const a = await app({
    approvalMode: "plan",
    script: { responses: [toolCall("c1", "propose_plan", { plan: PLAN }), { text: "Carrying out the plan." }] },
  });
  const { page } = a;
  await expect(page.getByRole("combobox", { name: "Approval mode" })).toHaveValue("plan");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("add a hello file");
  await box.press("Enter");
  const card = page.getByRole("region", { name: "Proposed plan" });
  await expect(card.locator("strong")).toHaveText("hello.txt");
  await expect(card).toBeFocused();
  await card.getByRole("button", { name: "Approve and switch to safe" }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Carrying out the plan.");
  await expect(page.getByRole("combobox", { name: "Approval mode" })).toHaveValue("safe");
  await expect(card.getByRole("button", { name: /Approve/ })).toHaveCount(0);

  const reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  expect(reqs).toHaveLength(2);
  const names = (r: Recorded) => (r.body?.tools ?? []).map((t) => t.function.name);
  expect(names(reqs[0])).toContain("propose_plan");
  expect(names(reqs[0])).not.toContain("write_file");
  expect(names(reqs[1])).toContain("write_file");
  expect(names(reqs[1])).not.toContain("propose_plan");
  const last = reqs[1].body?.messages?.at(-1);
  expect(last?.role).toBe("user");
  expect(last?.content).toContain("I approve your plan");
  expect(last?.content).toContain("Add **hello.txt** saying hi");
  expect(await a.modelViolations()).toEqual([]);
});
