import fs from "node:fs";
import path from "node:path";
import { test, expect, send, toolCall } from "./harness";

type Recorded = { method: string; path: string; body?: unknown };

// A user protecting a secret adds a read deny on .env to their policy and
// sees it on the Policy page; then the model's read_file and grep of the
// file and an @.env typed in the composer are refused with the rule, and
// the secret never reaches the page or the model. (`cat .env` through a command: sandbox.spec.ts.)
test("a read deny on .env added on the Policy page holds for read_file, grep and @.env, naming the rule", async ({ app }) => {
  const secret = "e2e-deny-secret-5519";
  const a = await app({
    approvalMode: "auto",
    files: { ".env": `TOKEN=${secret}\n`, "app.txt": "uses TOKEN from the environment\n" },
    script: {
      models: ["fake-model"],
      responses: [
        toolCall("call_1", "read_file", { path: ".env" }),
        { text: "The read was refused." },
        toolCall("call_2", "grep", { pattern: "TOKEN" }),
        { text: "Searched." },
      ],
    },
  });
  const { page } = a;

  // The user adds the deny to their policy file and reloads the Policy page: it is listed with its reason.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Permissions" }).click();
  const panel = page.getByRole("tabpanel", { name: "Permissions" });
  fs.writeFileSync(path.join(a.configDir, "policy.toml"),
    '[[rule]]\nid = "secrets"\ndecision = "deny"\ntool = "read_file"\nfiles = [".env"]\nreason = "secrets stay out"\n');
  await panel.getByRole("button", { name: "Reload" }).click();
  const rule = panel.getByRole("listitem", { name: "rule secrets" });
  await expect(rule).toContainText("deny");
  await expect(rule).toContainText(".env");
  await expect(rule).toContainText("secrets stay out");
  await page.getByRole("button", { name: "Close" }).click();

  // read_file .env: refused, the card says the policy denied it and names the rule.
  await send(page, "read the env");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The read was refused.");
  const read = page.getByRole("group", { name: /^read_file .*, failed$/ });
  await expect(read).toContainText("denied by your policy");
  await expect(read).toContainText("secrets stay out");

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
  expect(reqs.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"))).toHaveLength(4);
});
