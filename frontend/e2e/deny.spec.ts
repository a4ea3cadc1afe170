import fs from "node:fs";
import path from "node:path";
import { namespaces } from "./namespaces";
import { test, expect, send, toolCall } from "./harness";

type Recorded = { method: string; path: string; body?: unknown };

// A user protecting a secret adds a read deny on .env on the Policy page,
// by keyboard, through its form; then the model's read_file, `cat .env`
// and grep of the file and an @.env typed in the composer are refused with
// the rule, and the secret never reaches the page or the model. Deleting
// the rule leaves the policy file as it was.
test("a read deny on .env added on the Policy page holds for read_file, cat, grep and @.env, naming the rule", async ({ app }) => {
  const secret = "e2e-deny-secret-5519";
  const a = await app({
    approvalMode: "auto",
    files: { ".env": `TOKEN=${secret}\n`, "app.txt": "uses TOKEN from the environment\n" },
    script: {
      models: ["fake-model"],
      responses: [
        toolCall("call_1", "read_file", { path: ".env" }),
        { text: "The read was refused." },
        toolCall("call_2", "bash", { action: "exec", command: "cat .env" }),
        { text: "The command ran." },
        toolCall("call_3", "grep", { pattern: "TOKEN" }),
        { text: "Searched." },
      ],
    },
  });
  const { page } = a;
  const userFile = path.join(a.configDir, "policy.toml");
  const before = "# my own rules\n";
  fs.writeFileSync(userFile, before);

  // The user opens the Policy page and adds the deny with the keyboard only: a read deny of .env for any tool, everywhere.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Permissions" }).click();
  const panel = page.getByRole("tabpanel", { name: "Permissions" });
  const addButton = panel.getByRole("button", { name: "Add a rule…" });
  await addButton.focus();
  await page.keyboard.press("Enter");
  const form = panel.getByRole("form", { name: "New rule" });
  await form.getByLabel("Decision").focus();
  await form.getByLabel("Decision").selectOption("deny");
  await form.getByRole("checkbox", { name: /^Any tool/ }).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel(/^Paths, one a line/)).toBeFocused();
  await page.keyboard.type(".env");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Access")).toBeFocused();
  await form.getByLabel("Access").selectOption("read");
  await form.getByLabel("Reason").focus();
  await page.keyboard.type("secrets stay out");
  await form.getByRole("radio", { name: /everywhere/ }).focus();
  await page.keyboard.press("Space");
  await expect(form.getByRole("radio", { name: /everywhere/ })).toBeChecked();
  await form.getByLabel("Reason").focus();
  await page.keyboard.press("Enter");
  await expect(form).toHaveCount(0);
  const rule = panel.getByRole("listitem", { name: /^rule p-/ });
  await expect(rule).toContainText("deny");
  await expect(rule).toContainText(".env");
  await expect(rule).toContainText("secrets stay out");
  await expect(rule).toContainText("user policy");
  // Appended to the user's file, which keeps what it had.
  const saved = fs.readFileSync(userFile, "utf8");
  expect(saved.startsWith(before)).toBe(true);
  expect(saved).toContain('paths = [".env"]');
  expect(saved).toContain('access = "read"');
  // Test a path: every route's verdict, and what stays open.
  await panel.getByLabel("Tool to test").fill("read_file");
  await panel.getByLabel("Path to test (empty: the tool as a whole)").fill(".env");
  await panel.getByRole("button", { name: "Test" }).click();
  const routes = panel.getByRole("list", { name: "Every route" });
  await expect(routes).toContainText("read_file: deny");
  await expect(routes).toContainText("grep, glob, list_dir: deny");
  await expect(routes).toContainText("commands: deny");
  await expect(routes).toContainText("stays open: git's objects");
  await expect(routes).toContainText("your own MCP servers");
  await page.getByRole("button", { name: "Close" }).click();

  // read_file .env: refused, the card says the policy denied it and names the rule.
  await send(page, "read the env");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The read was refused.");
  const read = page.getByRole("group", { name: /^read_file .*, failed$/ });
  await expect(read).toContainText("denied by your policy");
  await expect(read).toContainText("secrets stay out");

  // cat .env in a command: it fails, and its card says the policy hid the file (with namespaces; Landlock alone cannot hide it).
  await send(page, "show it with cat");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The command ran.");
  const cat = page.getByRole("group", { name: /^bash / });
  if (namespaces() && (await page.getByRole("button", { name: /^Commands are not confined/ }).count()) === 0) {
    await expect(cat).toContainText(/exit [1-9]/);
    await expect(page.getByRole("note").filter({ hasText: "Your policy denies reading .env" })).toBeVisible();
  }

  // grep for the secret's name: .env is not searched, and the card says one file was hidden by the user's policy.
  await send(page, "find the token");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Searched.");
  const grep = page.getByRole("group", { name: /^grep .*, done$/ });
  await expect(grep).toContainText("1 match in 1 file searched");
  await expect(grep.getByRole("note")).toHaveText("Policy: 1 entry was hidden by the user's policy");
  await grep.getByRole("button", { name: /^grep/ }).click();
  await expect(grep).toContainText("app.txt");

  // @.env in the composer: never offered, and typed exactly it is refused with the rule; nothing is attached.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("explain ");
  await box.pressSequentially("@.env");
  const refusal = page.getByRole("alert").filter({ hasText: "@.env:" });
  await expect(refusal).toContainText("hidden by the user's policy");
  await expect(refusal).toContainText("secrets stay out");
  await expect(page.getByRole("listbox", { name: "Files" }).getByRole("option", { name: ".env", exact: true })).toHaveCount(0);
  await box.fill("");
  await expect(refusal).toHaveCount(0);

  await expect(page.locator("body")).not.toContainText(secret);
  const reqs = (await a.modelRequests()) as Recorded[];
  expect(JSON.stringify(reqs)).not.toContain(secret);
  expect(reqs.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"))).toHaveLength(6);

  // The rule the form added is deleted on the Policy page: the file is as it was.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Permissions" }).click();
  await rule.getByRole("button", { name: /^Delete rule p-/ }).click();
  await expect(rule).toHaveCount(0);
  expect(fs.readFileSync(userFile, "utf8")).toBe(before);
});
