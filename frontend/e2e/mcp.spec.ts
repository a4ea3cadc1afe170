import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect } from "./harness";

// server-everything, installed by `make mcp-servers` (a prerequisite of e2e).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const everything = path.join(root, "internal/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function send(page: import("@playwright/test").Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** Kills the server-everything processes this test's app started (only one app runs at a time). */
function killEverything(): number {
  let n = 0;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let cmd = "";
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (cmd.includes(everything) && cmd.includes("stdio")) {
      process.kill(Number(pid), "SIGKILL");
      n++;
    }
  }
  return n;
}

test("an MCP tool asks like any tool; a session rule covers it; the panel shows the server fail and come back", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    mcpServers: { everything: { command: "node", args: [everything, "stdio"] } },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "mcp__everything__echo", { message: "hello from the model" }),
        { text: "It echoed." },
        call("call_2", "mcp__everything__echo", { message: "second time" }),
        { text: "Echoed again." },
      ],
    },
  });
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  const state = panel.getByRole("status", { name: "everything state" });
  await expect(state).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });

  await send(page, "echo something");
  const dialog = page.getByRole("dialog", { name: "MCP server everything wants to run echo" });
  await expect(dialog).toBeVisible();
  const what = dialog.locator('[aria-label="MCP call"]');
  await expect(what).toContainText("everything");
  await expect(what).toContainText("echo");
  await expect(dialog.getByRole("group", { name: "Arguments" })).toContainText('"message": "hello from the model"');
  await expect(dialog.getByText("rule: echo on MCP server everything, any arguments (this session)")).toBeVisible();
  await dialog.getByRole("button", { name: "Approve for session" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("It echoed.");
  const card = page.getByRole("group", { name: /^mcp__everything__echo .*, done$/ }).first();
  await card.getByRole("button").first().click();
  await expect(card).toContainText("Echo: hello from the model");

  // The session rule covers the second call: no dialog.
  await send(page, "once more");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Echoed again.");
  await expect(page.getByRole("group", { name: /^mcp__everything__echo .*, done$/ })).toHaveCount(2);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The server's process dies: the panel says failed; Restart brings it back.
  expect(killEverything()).toBeGreaterThan(0);
  await expect(state).toHaveText("failed");
  await panel.getByRole("listitem", { name: "MCP server everything" }).getByRole("button", { name: "Restart" }).click();
  await expect(state).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });
});
