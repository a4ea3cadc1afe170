import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

const fetchCall = (id: string, url: string) => ({ toolCalls: [{ id, name: "web_fetch", arguments: JSON.stringify({ url }) }] });

async function send(page: import("@playwright/test").Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

// The .test names resolve nowhere: each approved fetch fails fast after the
// gate, which is what this spec is about (the fetch itself is Go-tested).
test("web_fetch asks with URL and domain; allowing the domain for the session lets its next fetch run, another domain asks", async ({ app }) => {
  const { page } = await app({
    approvalMode: "safe",
    script: {
      models: ["fake-model"],
      responses: [
        fetchCall("call_1", "https://docs.example.test/guide?page=2"), { text: "First fetch." },
        fetchCall("call_2", "https://docs.example.test/changelog"), { text: "Second fetch." },
        fetchCall("call_3", "https://other.example.test/"), { text: "never" },
      ],
    },
  });
  await send(page, "read the guide");
  const dialog = page.getByRole("dialog", { name: /^web_fetch/ });
  await expect(dialog).toBeVisible();
  const web = dialog.getByRole("definition").first();
  await expect(web).toHaveText("https://docs.example.test/guide?page=2");
  await expect(dialog.getByLabel("Web fetch")).toContainText("docs.example.test new to this session");
  await dialog.getByRole("button", { name: "Allow this domain for the session" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("First fetch.");

  // The same domain rides on the rule: no dialog.
  await send(page, "and the changelog");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Second fetch.");
  await expect(page.getByRole("group", { name: /^web_fetch / })).toHaveCount(2);

  // Another domain asks again.
  await send(page, "and the other site");
  const other = page.getByRole("dialog", { name: /^web_fetch/ });
  await expect(other).toBeVisible();
  await expect(other.getByLabel("Web fetch")).toContainText("other.example.test new to this session");
  await other.getByRole("button", { name: "Reject" }).click();
  await expect(other).toHaveCount(0);
  await expect(page.getByRole("note", { name: "End of turn" }).last()).toContainText("blocked: you rejected");
});

// Settings → Network in allow-list mode: the dialog's Sandbox line says so,
// the proxy refuses a domain off the list, the card names it with one click
// to allow it for the session, and the model reads why.
test("allow-list mode: a refused domain explains itself on the card and is allowed for the session in one click", async ({ app }) => {
  const { page, modelRequests } = await app({
    approvalMode: "safe",
    script: {
      models: ["fake-model"],
      responses: [
        { toolCalls: [{ id: "call_1", name: "bash", arguments: JSON.stringify({ action: "exec", command: "curl -sS --max-time 5 http://refused.example.test/" }) }] },
        { text: "Refused." },
      ],
    },
  });
  const badge = page.getByRole("button", { name: /^Commands are not confined/ });
  test.skip((await badge.count()) > 0, "commands are not confined here");
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "Network" }).click();
  const panel = page.getByRole("tabpanel", { name: /Network/ });
  await panel.getByRole("radio", { name: /^Allow-list/ }).check();
  await panel.getByRole("textbox", { name: /Allowed domains/ }).fill("registry.example.test\n*.docs.example.test");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByText("✓ Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  await send(page, "fetch it");
  const dialog = page.getByRole("dialog", { name: "bash wants to run a command" });
  await expect(dialog.locator(".approval-sandbox")).toContainText("Network: allow-list");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Refused.");
  const note = page.getByRole("note", { name: "Network" });
  await expect(note).toContainText("Refused refused.example.test (not on the network allow-list)");
  await note.getByRole("button", { name: "Allow refused.example.test for this session" }).click();
  await expect(note).toContainText("Allowed for this session");
  expect(JSON.stringify(await modelRequests())).toContain("not on the user's network allow-list");
});

// "Always allow" on a web_fetch dialog saves its domain, exactly: after a
// restart the same domain runs under the standing rule, a subdomain and
// another domain ask.
test("Always allow a web_fetch domain lasts across a restart and covers that domain only", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: {
      models: ["fake-model"],
      responses: [
        fetchCall("call_1", "https://docs.example.test/guide"), { text: "First fetch." },
        fetchCall("call_2", "https://docs.example.test/changelog"), { text: "Under the standing rule." },
        fetchCall("call_3", "https://api.docs.example.test/"),
        fetchCall("call_4", "https://other.example.test/"), { text: "never" },
      ],
    },
  });
  const { page } = a;
  await send(page, "read the guide");
  const dialog = page.getByRole("dialog", { name: /^web_fetch/ });
  await dialog.getByRole("button", { name: "Always allow…" }).click();
  const always = dialog.getByRole("group", { name: "Always allow" });
  await expect(always).toContainText("allow web_fetch any URL on docs.example.test (this exact domain, not its subdomains)");
  await always.getByRole("button", { name: "Save rule and approve" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("First fetch.");
  const saved = fs.readdirSync(path.join(a.configDir, "policy.d"));
  expect(fs.readFileSync(path.join(a.configDir, "policy.d", saved[0]), "utf8")).toContain('domain = "docs.example.test"');

  await a.restart();
  await send(page, "and the changelog");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Under the standing rule.");
  await expect(page.getByRole("group", { name: /^web_fetch / }).last()).toContainText("allowed by standing rule:");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  for (const [text, domain] of [["and the api", "api.docs.example.test"], ["and the other site", "other.example.test"]]) {
    await send(page, text);
    const asks = page.getByRole("dialog", { name: /^web_fetch/ });
    await expect(asks.getByLabel("Web fetch")).toContainText(domain);
    await asks.getByRole("button", { name: "Reject" }).click();
    await expect(asks).toHaveCount(0);
  }
});

// A web_fetch refused in allow-list mode: "Allow X always…" shows what it
// adds before saving, adds the domain to Settings → Network's allow-list,
// and the next fetch of that domain is no longer refused.
test("allow-list mode: a refused web_fetch domain is added to the allow-list for good after the user confirms", async ({ app }) => {
  const { page, modelRequests } = await app({
    approvalMode: "auto", // the fetch itself asks nothing: only the network setting decides
    script: {
      models: ["fake-model"],
      responses: [
        fetchCall("call_1", "https://refused.example.test/a"), { text: "Refused." },
        fetchCall("call_2", "https://refused.example.test/b"), { text: "Tried again." },
      ],
    },
  });
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "Network" }).click();
  const panel = page.getByRole("tabpanel", { name: /Network/ });
  await panel.getByRole("radio", { name: /^Allow-list/ }).check();
  await panel.getByRole("textbox", { name: /Allowed domains/ }).fill("registry.example.test");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByText("✓ Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  await send(page, "fetch it");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Refused.");
  const note = page.getByRole("note", { name: "Network" });
  await note.getByRole("button", { name: "Allow refused.example.test always…" }).click();
  const confirm = note.getByRole("group", { name: "Allow refused.example.test always" });
  await expect(confirm).toContainText("Adds refused.example.test to the network allow-list in Settings → Network");
  await confirm.getByRole("button", { name: "Add to the allow-list" }).click();
  await expect(note).toContainText("Added to the network allow-list");

  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "Network" }).click();
  await expect(panel.getByRole("textbox", { name: /Allowed domains/ })).toHaveValue("registry.example.test\nrefused.example.test");
  await page.getByRole("button", { name: "Close" }).click();

  await send(page, "again");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Tried again.");
  // The second fetch was not refused by the network setting: its card has no refusal.
  const cards = page.getByRole("group", { name: /^web_fetch / });
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText("not on the network allow-list");
  await expect(cards.last()).not.toContainText("not on the network allow-list");
  expect(JSON.stringify(await modelRequests())).toContain("refused.example.test is not on the network allow-list");
});
