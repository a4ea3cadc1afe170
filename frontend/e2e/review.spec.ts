import fs from "node:fs";
import { test, expect, send, toolCall as call } from "./harness";
import { gitRepo } from "./git";

const lines = (edits: Record<number, string> = {}) =>
  Array.from({ length: 20 }, (_, i) => edits[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

test("Review in the Changes view puts the reviewer's findings on their hunks, Fix sends one to the agent, Sessions → Export writes the session", async ({ app }) => {
  const { page, workspace, configDir, modelRequests } = await app({
    approvalMode: "auto",
    files: { "a.txt": lines() },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "write_file", { path: "a.txt", content: lines({ 2: "LINE TWO", 18: "LINE EIGHTEEN" }) }),
        { text: "Changed two lines of a.txt." },
        call("rev_1", "report_findings", { findings: [
          { severity: "high", file: "a.txt", startLine: 2, endLine: 2, title: "Shouting on line two", explanation: "Capitals read as shouting." },
          { severity: "low", file: "a.txt", startLine: 18, endLine: 18, title: "Shouting on line eighteen", explanation: "Same here.", suggestion: "line 18" },
        ] }),
        { text: "Two findings." },
        { text: "I will lower line two." },
      ],
    },
  });
  gitRepo(workspace, configDir);
  await send(page, "change a.txt");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Changed two lines of a.txt.");

  await page.getByRole("button", { name: "Changes", exact: true }).click();
  const view = page.getByRole("region", { name: "Changes" });
  await view.getByRole("button", { name: "Review…" }).click();
  const review = view.getByRole("region", { name: "Review with the model" });
  await review.getByRole("button", { name: "Review", exact: true }).click();
  const findings = review.getByRole("complementary", { name: "Findings" });
  await expect(findings.getByRole("listitem")).toHaveCount(2);
  // Each comment sits on its own hunk's header row.
  const first = review.getByRole("note", { name: "Finding: Shouting on line two" });
  const second = review.getByRole("note", { name: "Finding: Shouting on line eighteen" });
  await expect(first.locator("xpath=ancestor::div[contains(@class,'diff-hunk')][1]")).toContainText("@@ -1,5 +1,5 @@");
  await expect(second.locator("xpath=ancestor::div[contains(@class,'diff-hunk')][1]")).toContainText("@@ -15,6 +15,6 @@");
  const reviewer = (await modelRequests()).map((r) => JSON.stringify(r)).find((r) => r.includes("Review the uncommitted changes")) ?? "";
  expect(reviewer).toContain("+LINE TWO");

  await findings.getByRole("button", { name: "Fix: Shouting on line two" }).click();
  await expect(review.getByRole("status")).toContainText("Sent “Shouting on line two” to the agent.");
  const fixRequest = async () => (await modelRequests()).map((r) => JSON.stringify(r)).find((r) => r.includes("Fix this finding of a code review")) ?? "";
  await expect.poll(fixRequest).not.toBe("");
  const fix = await fixRequest();
  expect(fix).toContain("[high] a.txt:2: Shouting on line two");

  await view.getByRole("button", { name: "Close", exact: true }).click();
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("I will lower line two.");
  await page.getByRole("button", { name: /Sessions/ }).click();
  await page.getByRole("menuitem", { name: "Export this session…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export the session" });
  await dialog.getByRole("button", { name: "Export" }).click();
  const status = dialog.getByRole("status");
  await expect(status).toContainText("Written to");
  const file = (await status.locator("code").textContent()) ?? "";
  const html = fs.readFileSync(file, "utf8");
  expect(html).toContain("default-src 'none'");
  // The file is the window's own rendering of the session: opened, it draws
  // the message and the call as the window's cards, loading nothing.
  const exported = await page.context().newPage();
  const problems: string[] = [];
  exported.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
  exported.on("request", (r) => void (!/^(file|data):/.test(r.url()) && problems.push(`request ${r.url()}`)));
  await exported.goto(`file://${file}`);
  await expect(exported.getByRole("group", { name: /^write_file a\.txt, done/ })).toBeVisible();
  await expect(exported.getByRole("article", { name: "Your message" }).last()).toContainText("Fix this finding of a code review");
  expect(problems).toEqual([]);
  await exported.close();
});

test("A turn's Review… reviews what that turn changed, with the findings on its hunk, in a folder without git", async ({ app }) => {
  const { page, modelRequests } = await app({
    approvalMode: "auto",
    files: { "a.txt": lines(), "b.txt": "bee\n" },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "write_file", { path: "b.txt", content: "BEE\n" }),
        { text: "Changed b.txt." },
        call("call_2", "write_file", { path: "a.txt", content: lines({ 3: "LINE THREE" }) }),
        { text: "Changed a.txt." },
        call("rev_1", "report_findings", { findings: [
          { severity: "medium", file: "a.txt", startLine: 3, endLine: 3, title: "Shouting on line three", explanation: "Capitals read as shouting." },
        ] }),
        { text: "One finding." },
      ],
    },
  });
  await send(page, "change b.txt");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Changed b.txt.");
  await send(page, "change a.txt");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Changed a.txt.");

  const second = page.getByRole("article", { name: "Your message" }).filter({ hasText: "change a.txt" });
  await second.getByRole("button", { name: "Review…" }).click();
  const review = page.getByRole("region", { name: "Review with the model" });
  await expect(review.getByRole("combobox", { name: "What to review" })).toHaveValue("turn");
  const comment = review.getByRole("note", { name: "Finding: Shouting on line three" });
  await expect(comment).toBeVisible();
  await expect(comment.locator("xpath=ancestor::div[contains(@class,'diff-hunk')][1]")).toContainText("@@ -1,6 +1,6 @@");
  const reviewer = (await modelRequests()).map((r) => JSON.stringify(r)).find((r) => r.includes("Review one turn of this session")) ?? "";
  expect(reviewer).toContain("+LINE THREE");
  expect(reviewer).not.toContain("+BEE");
});
