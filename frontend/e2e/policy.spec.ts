import fs from "node:fs";
import path from "node:path";
import { test, expect, send, toolCall } from "./harness";

const exec = (id: string, command: string) => toolCall(id, "bash", { action: "exec", command });
const pkg = { "package.json": JSON.stringify({ name: "policy-e2e", version: "1.0.0", private: true, scripts: { test: "echo tests-passed" } }) };

test("Always allow `npm test` lasts across a restart, names its rule and file, never covers `&& curl x`, is audited, and deleting it asks again", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    files: pkg,
    script: {
      models: ["fake-model"],
      responses: [
        exec("call_1", "npm test"), { text: "First run." },
        exec("call_2", "npm test"), { text: "Ran under the standing rule." },
        exec("call_3", "npm test && curl x"),
        exec("call_4", "npm test"), { text: "never" },
      ],
    },
  });
  const { page } = a;
  await send(page, "run the tests");
  const dialog = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Always allow…" }).click();
  const always = dialog.getByRole("group", { name: "Always allow" });
  // Before saving: what it matches and where it goes.
  await expect(always).toContainText("allow run exactly `npm test`");
  await expect(always.getByRole("radio", { name: /this workspace/ })).toBeChecked();
  await always.getByRole("button", { name: "Save rule and approve" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("First run.");
  // Saved in the user's config, keyed by the workspace, never inside it.
  const saved = fs.readdirSync(path.join(a.configDir, "policy.d"));
  expect(saved).toHaveLength(1);
  const file = path.join(a.configDir, "policy.d", saved[0]);
  expect(fs.readFileSync(file, "utf8")).toContain('commands = ["npm test"]');
  expect(fs.existsSync(path.join(a.workspace, ".gatehouse"))).toBe(false);

  // A new app on the same folders (the session comes back in its tab): the rule holds without a
  // dialog, and the card says which rule and file.
  await a.restart();
  await send(page, "again");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Ran under the standing rule.");
  const card = page.getByRole("group", { name: /^bash .*, done$/ }).last();
  await expect(card).toContainText("exit 0");
  await expect(card).toContainText("allowed by standing rule:");
  await expect(card).toContainText("workspace policy");
  await expect(card).toContainText(file);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Chained with curl it is not the rule's line: it asks.
  await send(page, "and fetch");
  const chained = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(chained).toBeVisible();
  await expect(chained.getByRole("list", { name: "Steps" })).toContainText("curl x");
  await chained.getByRole("button", { name: "Reject" }).click();
  await expect(chained).toHaveCount(0);

  // The Policy page lists the rule with its use and the audit log the rule-approved call; delete it.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Permissions" }).click();
  const panel = page.getByRole("tabpanel", { name: "Permissions" });
  const rule = panel.getByRole("listitem", { name: /^rule p-/ });
  await expect(rule).toHaveCount(1);
  await expect(rule).toContainText("allow: run `npm test`");
  await expect(rule).toContainText("workspace policy");
  await expect(rule).toContainText("decided 1 time");
  const audit = panel.getByRole("region", { name: "Audit log" });
  const row = audit.getByRole("row").filter({ hasText: "npm test" }).filter({ hasText: /allow by p-[0-9a-f]+ \(workspace\)/ });
  await expect(row).toHaveCount(1);
  await audit.getByRole("searchbox", { name: "Filter the audit log" }).fill("curl");
  await expect(audit.getByRole("row").filter({ hasText: "allow by" })).toHaveCount(0);
  await rule.getByRole("button", { name: /^Delete rule p-/ }).click();
  await expect(rule).toHaveCount(0);
  expect(fs.readFileSync(file, "utf8")).not.toContain("npm test");
  await page.getByRole("button", { name: "Close" }).click();

  // The next `npm test` asks again.
  await send(page, "test once more");
  const again = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(again).toBeVisible();
  await expect(again.getByRole("list", { name: "Steps" })).toContainText("npm test");
  await again.getByRole("button", { name: "Reject" }).click();
  expect(await a.modelViolations()).toEqual([]);
});

test("a workspace's own policy.toml: an allow refuses the file with its reason; trusted, its deny refuses the call in auto mode", async ({ app }) => {
  const allowFile = '[[rule]]\ndecision = "deny"\ntool = "bash"\ncommands = ["curl **"]\nreason = "no network from this repo"\n\n[[rule]]\ndecision = "allow"\ntool = "bash"\ncommands = ["rm -rf build"]\n';
  const a = await app({
    approvalMode: "auto",
    files: { ".gatehouse/policy.toml": allowFile },
    script: { models: ["fake-model"], responses: [exec("call_1", "curl -s http://127.0.0.1:9/"), { text: "Curl was refused; going on." }] },
  });
  const { page, workspace } = a;
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Permissions" }).click();
  const panel = page.getByRole("tabpanel", { name: "Permissions" });
  const pending = panel.getByRole("group", { name: "Workspace policy waiting for trust" });
  await expect(pending).toContainText("rm -rf build");
  await pending.getByRole("button", { name: "Trust this file" }).click();
  await expect(pending).toHaveCount(0);
  // Trusted, it is refused whole, with the line and why.
  const refused = panel.getByRole("alert").filter({ hasText: "Not loaded" });
  await expect(refused).toContainText(`${fs.realpathSync(workspace)}/.gatehouse/policy.toml:7`);
  await expect(refused).toContainText("can only tighten");
  await expect(panel.getByRole("listitem", { name: /^rule project/ })).toHaveCount(0);

  // Without the allow the file asks for trust again (its content changed); trusted, its deny holds even in auto.
  fs.writeFileSync(path.join(workspace, ".gatehouse/policy.toml"), allowFile.split("\n\n")[0] + "\n");
  await panel.getByRole("button", { name: "Reload" }).click();
  await pending.getByRole("button", { name: "Trust this file" }).click();
  const deny = panel.getByRole("listitem", { name: "rule project:1" });
  await expect(deny).toContainText("deny: run `curl **`");
  await expect(deny).toContainText("project policy");
  await expect(deny.getByRole("button")).toHaveCount(0); // the workspace's file is the workspace's to edit
  await page.getByRole("button", { name: "Close" }).click();

  await send(page, "fetch it");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Curl was refused; going on.");
  const card = page.getByRole("group", { name: /^bash .*, failed$/ });
  await expect(card).toContainText("denied by the project's policy, rule:");
  await expect(card).toContainText("project policy");
  const reqs = (await a.modelRequests()) as { path: string; body?: { messages?: { role: string; content?: unknown }[] } }[];
  const last = reqs.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!;
  expect(JSON.stringify(last.body?.messages?.filter((m) => m.role === "tool"))).toContain("no network from this repo");
});

test("edit a rule on the Policy page: a bad edit says why and changes nothing; a good one decides the next test", async ({ app }) => {
  const a = await app({ approvalMode: "safe" });
  const { page } = a;
  const userFile = path.join(a.configDir, "policy.toml");
  fs.writeFileSync(userFile, '# my rules\n[[rule]]\nid = "tests"\ndecision = "allow"\ntool = "bash"\ncommands = ["npm test"]\nmatch = ["npm test"]\n');
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Permissions" }).click();
  const panel = page.getByRole("tabpanel", { name: "Permissions" });
  await panel.getByRole("button", { name: "Edit rule tests" }).click();
  const form = panel.getByRole("form", { name: "Edit rule tests" });
  await form.getByLabel(/^Commands, one a line/).fill("npm run test:*");
  await form.getByRole("button", { name: "Save rule" }).click();
  // The old example no longer matches: refused, the draft kept, the file untouched.
  await expect(form.getByRole("alert")).toContainText('match example "npm test" is not matched');
  await expect(form.getByLabel(/^Commands, one a line/)).toHaveValue("npm run test:*");
  expect(fs.readFileSync(userFile, "utf8")).toContain('commands = ["npm test"]');

  await form.getByLabel(/^Must match/).fill("npm run test:unit");
  await form.getByLabel(/^Must not match/).fill("npm run test:unit && curl x");
  await form.getByRole("button", { name: "Save rule" }).click();
  await expect(form).toHaveCount(0);
  await expect(panel.getByRole("listitem", { name: "rule tests" })).toContainText("allow: run `npm run test:*`");
  const text = fs.readFileSync(userFile, "utf8");
  expect(text.startsWith("# my rules\n[[rule]]\nid = \"tests\"\n")).toBe(true);
  expect(text).toContain('not_match = ["npm run test:unit && curl x"]');

  // What safe runs unasked is said as what a call's plan reads, not listed as rules.
  await panel.getByText("What safe runs unasked and plan mode offers").click();
  await expect(panel.getByRole("note", { name: "What only reads" })).toContainText("whatever its tool claims");
  await expect(panel.getByRole("listitem", { name: /^rule builtin:/ })).toHaveCount(0);

  // Which rule decides, and why.
  const test = panel.getByRole("region", { name: "Test a command" });
  await test.getByLabel("Command line to test").fill("npm run test:e2e");
  await test.getByRole("button", { name: "Test" }).click();
  await expect(test.getByRole("status")).toContainText("allow");
  await expect(test.getByRole("status")).toContainText("tests");
  await test.getByLabel("Command line to test").fill("npm run test:e2e && curl x");
  await test.getByRole("button", { name: "Test" }).click();
  await expect(test.getByRole("status")).toContainText("no rule");
  // A file tool, on a path: the same files decide.
  fs.appendFileSync(userFile, '\n[[rule]]\nid = "secrets"\ndecision = "deny"\ntool = "apply_patch"\nfiles = ["**/.env"]\nreason = "by hand only"\n');
  await test.getByLabel("Tool to test").fill("apply_patch");
  await test.getByLabel("Path to test (empty: the tool as a whole)").fill("web/.env");
  await test.getByRole("button", { name: "Test" }).click();
  await expect(test.getByRole("status")).toContainText("deny");
  await expect(test.getByRole("status")).toContainText("by hand only");
});
