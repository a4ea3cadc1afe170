import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function send(page: import("@playwright/test").Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

test("delegates to explore (its calls nested live in the card), then to general, which asks to start and whose patch asks in a dialog naming the agent", async ({ app }) => {
  const patch = ["*** Begin Patch", "*** Update File: a.txt", "@@", "-alpha", "+ALPHA", "*** End Patch"].join("\n");
  const { page, workspace, modelViolations } = await app({
    approvalMode: "safe",
    files: { "a.txt": "alpha\n", "b.txt": "beta\n" },
    script: {
      models: ["fake-model"],
      responses: [
        call("c1", "delegate_explore", { task: "what do a.txt and b.txt say?" }),
        { toolCalls: [{ id: "k1", name: "read_file", arguments: JSON.stringify({ path: "a.txt" }) }, { id: "k2", name: "read_file", arguments: JSON.stringify({ path: "b.txt" }) }] },
        // The explorer answers slowly: its card is still running while its calls show.
        { text: ["a says alpha, ", "b says beta"], delayMs: 1500 },
        call("c2", "delegate_general", { task: "shout a.txt" }),
        call("g1", "apply_patch", { patch }),
        { text: "Shouted." },
        { text: "All done." },
      ],
    },
  });
  await send(page, "look, then shout");

  const explore = page.getByRole("group", { name: /^delegate_explore .*, running$/ });
  const child = explore.getByRole("group", { name: /^explore agent, 2 tool calls, running$/ });
  await expect(child.getByRole("group", { name: "read_file a.txt, done" })).toBeVisible();
  await expect(child.getByRole("group", { name: "read_file b.txt, done" })).toBeVisible();

  // general can write: starting it asks first (explore, which only reads, did not).
  const start = page.getByRole("dialog", { name: /delegate_general/ });
  await expect(start).toBeVisible();
  await start.getByRole("button", { name: "Approve once" }).click();
  await expect(start).toHaveCount(0);
  const dialog = page.getByRole("dialog", { name: "general › apply_patch wants to change a.txt" });
  await expect(dialog).toBeVisible();
  const done = page.getByRole("group", { name: /^delegate_explore .*, done$/ });
  await expect(done.getByRole("group", { name: /^explore agent, 2 tool calls, completed$/ })).toContainText("a says alpha, b says beta");
  await dialog.getByRole("button", { name: "Approve once" }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("All done.");
  const general = page.getByRole("group", { name: /^delegate_general .*, done$/ });
  await expect(general.getByRole("group", { name: /^general agent, 1 tool call, completed$/ })).toContainText("Shouted.");
  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toBe("ALPHA\n");
  expect(await modelViolations()).toEqual([]);
});

test("the workspace's own agent is offered only after the folder is trusted for it from the prompt", async ({ app }) => {
  const { page, modelViolations } = await app({
    approvalMode: "safe",
    files: {
      "a.txt": "alpha\n",
      ".gatehouse/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews the changes.\ntools: read_file, grep\n---\nReview.\n",
    },
    script: {
      models: ["fake-model"],
      responses: [call("c1", "delegate_reviewer", { task: "review a.txt" }), { text: "Looks fine." }, { text: "The reviewer says it looks fine." }],
    },
  });
  const prompt = page.getByRole("alert", { name: "Workspace agents waiting for trust" });
  const file = prompt.getByLabel("Agent file .gatehouse/agents/reviewer.md");
  await expect(file).toContainText("reviewer: Reviews the changes.");
  await expect(file).toContainText("Tools: read_file, grep");
  await prompt.getByRole("button", { name: "Trust" }).click();
  await expect(prompt).toHaveCount(0);

  await send(page, "review it");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The reviewer says it looks fine.");
  await expect(page.getByRole("group", { name: /^delegate_reviewer .*, done$/ })).toContainText("Looks fine.");
  expect(await modelViolations()).toEqual([]);
});
