import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect } from "./harness";

// A browser server of the user's own list (@playwright/mcp, installed by
// `make mcp-servers`) in the Servers panel, with the network in allow-list mode.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cli = path.join(root, "internal/mcp/testdata/servers/node_modules/@playwright/mcp/cli.js");

/** The command lines of the running @playwright/mcp servers. */
function browserServers(): string[] {
  const out: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (cmd.includes(cli)) out.push(cmd.join(" ").trim());
    } catch {
      continue;
    }
  }
  return out;
}

test("the panel says a browser server runs outside the sandbox and starts it with the app's proxy in one click", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    settings: { network: "allow-list", networkAllow: ["docs.example.test"] },
    mcpServers: { browser: { command: "node", args: [cli, "--browser", "chromium", "--executable-path", "/usr/bin/chromium", "--headless", "--isolated"] } },
  });
  const panel = page.getByRole("complementary", { name: "Servers" });
  await panel.getByRole("button", { name: "Servers" }).click();
  await expect(panel.getByRole("status", { name: "browser state" })).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });
  const reach = panel.getByRole("note", { name: "browser reach" });
  await expect(reach).toContainText("outside the sandbox");
  await expect(reach).toContainText("the network allow-list does not apply to it");
  expect(browserServers().filter((c) => c.includes("--proxy-server"))).toEqual([]);

  await reach.getByRole("button", { name: "Start with the app's proxy" }).click();
  await expect(reach).toContainText("the network allow-list holds them");
  await expect(panel.getByRole("status", { name: "browser state" })).toHaveText(/^ready · \d+ tools$/, { timeout: 30_000 });
  const running = browserServers();
  expect(running).toHaveLength(1);
  expect(running[0]).toMatch(/ --proxy-server=http:\/\/127\.0\.0\.1:\d+$/);
  // Kept in the user's list as a setting, not as this run's port.
  await panel.getByRole("button", { name: "Edit as JSON" }).click();
  const json = await panel.getByRole("textbox", { name: "mcpServers JSON" }).inputValue();
  expect(json).toContain('"appProxy": true');
  expect(json).not.toContain("--proxy-server");
});
