import path from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect } from "./harness";

// An MCP server's question and a tool's picture, against server-everything
// (installed by `make mcp-servers`, a prerequisite of e2e).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const everything = path.join(root, "internal/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const servers = { everything: { command: "node", args: [everything, "stdio"] } };
const seeing = { "fake-model": { architecture: { input_modalities: ["text", "image"] } } };

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

type Recorded = { path: string; method: string; images?: Array<{ role: string; mime: string }> };

async function send(page: import("@playwright/test").Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** Presses Tab until target has the focus (a date field takes a Tab per part). */
async function tabTo(page: import("@playwright/test").Page, target: import("@playwright/test").Locator) {
  for (let i = 0; i < 20; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

/** Waits until the panel lists the server's tool (server-everything offers its question tool once it knows the client answers questions). */
async function waitForTool(page: import("@playwright/test").Page, tool: string) {
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  await expect(panel.getByRole("status", { name: "everything state" })).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });
  await panel.getByText("Tools", { exact: true }).click();
  await expect(panel.getByRole("checkbox", { name: `Offer ${tool} to the model` })).toBeVisible({ timeout: 30_000 });
}

test("an MCP server's question is answered entirely by keyboard: Accept with the form's values, then Escape cancels", async ({ app }) => {
  const { page } = await app({
    approvalMode: "auto",
    mcpServers: servers,
    script: {
      models: ["fake-model"],
      responses: [
        call("q1", "mcp__everything__trigger-elicitation-request", {}),
        { text: "Thanks, Ada." },
        call("q2", "mcp__everything__trigger-elicitation-request", {}),
        { text: "You cancelled." },
      ],
    },
  });
  await waitForTool(page, "trigger-elicitation-request");

  await send(page, "ask me");
  const dialog = page.getByRole("dialog", { name: /^MCP server everything asks/ });
  await expect(dialog).toBeVisible();
  // Focus starts on the first field (the required name): type, Tab on to
  // the yes/no field, Space ticks it, Tab on to Accept and Enter.
  const name = dialog.getByRole("textbox").first();
  await expect(name).toBeFocused();
  await page.keyboard.type("Ada Lovelace");
  const check = dialog.getByRole("checkbox").first();
  await tabTo(page, check);
  await page.keyboard.press("Space");
  await expect(check).toBeChecked();
  await tabTo(page, dialog.getByRole("button", { name: "Accept" }));
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Thanks, Ada.");
  const accepted = page.getByRole("group", { name: /^mcp__everything__trigger-elicitation-request .*, done$/ }).first();
  await accepted.getByRole("button").first().click();
  await expect(accepted).toContainText("Name: Ada Lovelace");
  await expect(accepted).toContainText("Agreed to terms: true");

  // Escape cancels (never accepts): the server reads cancel.
  await send(page, "ask again");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("textbox").first()).toBeFocused();
  await page.keyboard.type("not sent");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("You cancelled.");
  const cancelled = page.getByRole("group", { name: /^mcp__everything__trigger-elicitation-request .*, done$/ }).nth(1);
  await cancelled.getByRole("button").first().click();
  await expect(cancelled).toContainText("User cancelled");
  await expect(cancelled).not.toContainText("not sent");
});

test("the picture an MCP tool returns shows on its card and reaches a model that sees", async ({ app }) => {
  const a = await app({
    approvalMode: "auto",
    mcpServers: servers,
    script: {
      models: ["fake-model"],
      modelMeta: seeing,
      responses: [call("p1", "mcp__everything__get-tiny-image", {}), { text: "A tiny picture." }],
    },
  });
  const { page } = a;
  await waitForTool(page, "get-tiny-image");
  await send(page, "show me the tiny image");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("A tiny picture.");
  const thumb = page.getByRole("button", { name: "Open get-tiny-image from everything full size" });
  await expect(thumb.getByRole("img")).toBeVisible();
  expect(await thumb.getByRole("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await thumb.click();
  await expect(page.getByRole("dialog").getByRole("img")).toBeVisible();
  const chats = ((await a.modelRequests()) as Recorded[]).filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats[1].images?.map((i) => i.mime)).toEqual(["image/png"]);
  expect(await a.modelViolations()).toEqual([]);
});
