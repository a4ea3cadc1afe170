import path from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect } from "./harness";

// server-everything, installed by `make mcp-servers` (a prerequisite of e2e): its documents are resources, its
// args-prompt a prompt with a required and an optional argument.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const everything = path.join(root, "internal/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const featuresURI = "demo://resource/static/document/features.md";

type Recorded = { method: string; path: string; body?: { messages?: { role: string; content: string }[] } };

test("@ offers a server's resource beside the files, and / its prompt with an argument form; each reaches the model", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    mcpServers: { everything: { command: "node", args: [everything, "stdio"] } },
    script: { models: ["fake-model"], responses: [{ text: "Summarised." }, { text: "Sunny." }] },
    files: { "features-notes.txt": "mine\n" },
  });
  const { page } = a;
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  await expect(panel.getByRole("status", { name: "everything state" })).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });

  // @: the workspace's file and the server's document, labelled with the server.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("summarise ");
  await box.pressSequentially("@features");
  const list = page.getByRole("listbox", { name: "Files" });
  await expect(list.getByRole("option", { name: "features-notes.txt" })).toBeVisible();
  const resource = list.getByRole("option", { name: `features.md — everything ${featuresURI}` });
  await expect(resource).toBeVisible();
  await resource.dispatchEvent("mousedown");
  await expect(box).toHaveValue(`summarise @mcp:everything:${featuresURI} `);
  await expect(page.getByRole("list", { name: "Attached files" })).toContainText("features.md — everything");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Summarised.");
  let reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  let sent = reqs[0].body?.messages?.at(-1)?.content ?? "";
  expect(sent).toContain(`<resource server="everything" uri="${featuresURI}" mimeType="text/markdown">`);
  expect(sent).toContain("# Everything Server - Features");

  // /: the prompt with its description; picking it asks its arguments, the required one first and enforced.
  await box.fill("/");
  const menu = page.getByRole("listbox", { name: "Commands" });
  const entry = menu.getByRole("option", { name: /^\/everything:args-prompt A prompt with two arguments/ });
  await expect(entry).toBeVisible();
  await box.fill("/everything:args");
  await box.press("Tab");
  const form = page.getByRole("dialog", { name: "Arguments of /everything:args-prompt" });
  const city = form.getByRole("textbox", { name: "city (required)" });
  await expect(city).toBeFocused();
  await form.getByRole("button", { name: "Send" }).click();
  await expect(form.getByRole("alert")).toContainText("Fill in city");
  await city.fill("San Antonio");
  await form.getByRole("textbox", { name: "state" }).fill("Texas");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Sunny.");
  reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  sent = reqs[1].body?.messages?.at(-1)?.content ?? "";
  expect(sent).toBe("What's weather in San Antonio, Texas?");
});

test("a tool result's resource link is listed on its card and opens in place, read from the server", async ({ app }) => {
  const a = await app({
    approvalMode: "auto",
    mcpServers: { everything: { command: "node", args: [everything, "stdio"] } },
    script: {
      models: ["fake-model"],
      responses: [{ toolCalls: [{ id: "call_1", name: "mcp__everything__get-resource-links", arguments: JSON.stringify({ count: 2 }) }] }, { text: "Linked." }],
    },
  });
  const { page } = a;
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  await expect(panel.getByRole("status", { name: "everything state" })).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("link some resources");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Linked.");
  const card = page.getByRole("group", { name: /^mcp__everything__get-resource-links .*, done$/ });
  await card.getByRole("button").first().click();
  const item = card.getByRole("list", { name: "Resources" }).getByRole("listitem", { name: "Resource Text Resource 2" });
  await item.getByRole("button", { name: "Open Text Resource 2" }).click();
  await expect(item.getByLabel("Content of demo://resource/dynamic/text/2", { exact: true })).toContainText("Resource 2: This is a plaintext resource");
});
