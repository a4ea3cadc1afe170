import path from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect, send } from "./harness";

// server-everything, installed by `make mcp-servers` (a prerequisite of e2e).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const everything = path.join(root, "internal/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");

const auditor = "---\nname: auditor\ndescription: Reviews the changes.\ntools: read_file\n---\nReview.\n";

test("the trust prompt shows a workspace server's env values, flags NODE_OPTIONS, masks secrets and shows read-only hints", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    files: {
      ".gatehouse/mcp.json": JSON.stringify({
        mcpServers: {
          helper: { command: "node", args: ["server.js"], trustReadOnlyHints: true, env: { NODE_OPTIONS: "--require ./x.js", API_TOKEN: "t0ps3cret", PORT: "5432" } },
        },
      }),
    },
  });
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  const prompt = panel.getByRole("alert", { name: "Workspace servers waiting for trust" });
  const helper = prompt.getByLabel("Server helper");
  await expect(helper).toContainText("helper runs node server.js");
  await expect(helper).toContainText("NODE_OPTIONS=--require ./x.js ⚠ makes the server load code it names");
  await expect(helper).toContainText("PORT=5432");
  await expect(helper).toContainText("API_TOKEN=•••••• (a secret: not shown)");
  await expect(helper).toContainText("trusts its read-only hints");
  await expect(helper).not.toContainText("t0ps3cret");
});

test("Settings lists the trusted folder and revokes it: its agents and servers stop being offered", async ({ app }) => {
  const { page, modelRequests } = await app({
    approvalMode: "safe",
    files: {
      ".gatehouse/agents/auditor.md": auditor,
      ".gatehouse/mcp.json": JSON.stringify({ mcpServers: { everything: { command: "node", args: [everything, "stdio"] } } }),
    },
    script: { models: ["fake-model"], responses: [{ text: "Before." }, { text: "After." }] },
  });
  const agents = page.getByRole("alert", { name: "Workspace agents waiting for trust" });
  await agents.getByRole("button", { name: "Trust" }).click();
  await expect(agents).toHaveCount(0);
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  await panel.getByRole("alert", { name: "Workspace servers waiting for trust" }).getByRole("button", { name: "Trust and start" }).click();
  await expect(panel.getByRole("status", { name: "everything state" })).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });

  const toolNames = async () => {
    type Tool = { function?: { name: string }; name?: string };
    const reqs = ((await modelRequests()) as { method: string; body?: { tools?: Tool[] } }[]).filter((r) => r.method === "POST");
    return (reqs.at(-1)?.body?.tools ?? []).map((t) => t.function?.name ?? t.name ?? "");
  };
  await send(page, "before");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Before.");
  const before = await toolNames();
  expect(before).toContain("delegate_auditor");
  expect(before.some((n) => n.startsWith("mcp__everything__"))).toBe(true);

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Trusted folders" }).click();
  const folder = page.getByLabel(/^Trusted folder .*workspace$/);
  await expect(folder).toContainText("its agent definitions");
  await expect(folder).toContainText("its MCP servers");
  await folder.getByRole("button", { name: /^Revoke trust in / }).click();
  await expect(folder).toHaveCount(0);
  await expect(page.getByText("No folder is trusted.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  // Both prompts ask again; the server is gone from the panel.
  await expect(page.getByRole("alert", { name: "Workspace agents waiting for trust" })).toBeVisible();
  const toggle = page.getByRole("complementary", { name: "Servers" }).getByRole("button", { name: "Servers" });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(page.getByRole("alert", { name: "Workspace servers waiting for trust" })).toBeVisible();
  await expect(page.getByRole("status", { name: "everything state" })).toHaveCount(0);

  await send(page, "after");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("After.");
  const after = await toolNames();
  expect(after).not.toContain("delegate_auditor");
  expect(after.some((n) => n.startsWith("mcp__everything__"))).toBe(false);
});
