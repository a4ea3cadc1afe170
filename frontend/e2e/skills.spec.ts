import path from "node:path";
import { test, expect, toolCall, send } from "./harness";

type Recorded = { method: string; path: string; body?: { messages?: { role: string; content: string }[] } };

const skills = ".config/gatehouse/skills";
const REF = `${skills}/style-guide/references/x.md`;

test("a user skill is listed under /, loads for the next message and by the model's skill call, and Settings → Skills says what is wrong with the others", async ({ app }) => {
  const a = await app({
    approvalMode: "auto",
    homeFiles: {
      [`${skills}/release-notes/SKILL.md`]:
        "---\nname: release-notes\ndescription: Write release notes from the changelog\nallowed-tools: Read Grep\nlicense: MIT\n---\n# Release notes\n\nGroup the changes by area.\n",
      // Written for another agent: a folded description with a colon, an extra key, a reference.
      [`${skills}/style-guide/SKILL.md`]:
        "---\nname: style-guide\ndescription: >\n  House style for Go code: errors and naming.\n  Use when writing Go.\nauthor: team\n---\nRead references/x.md before writing Go.\n",
      [`${skills}/style-guide/references/x.md`]: "# Errors\n\nWrap errors with %w.\n",
      [`${skills}/broken/SKILL.md`]: "---\nname: broken\n---\nNo description here.\n",
      [`${skills}/old-name/SKILL.md`]: "---\nname: new-name\ndescription: Renamed without moving its folder\n---\nBody.\n",
      ".config/gatehouse/AGENTS.md": "Answer in English.\n",
    },
    files: { "CLAUDE.md": "See @docs/style.md and @../outside.md\n", "docs/style.md": "Tabs, not spaces.\n" },
    script: ({ home }: { home: string }) => ({
      responses: [
        { text: "Drafted." },
        toolCall("c1", "skill", { name: "style-guide" }),
        // The path the catalog gives: the skill's folder, a read-only root outside the workspace.
        toolCall("c2", "read_file", { path: path.join(home, REF) }),
        { text: "Styled." },
      ],
    }),
  });
  const { page } = a;

  // "/" lists the offered skills with their descriptions; the broken one is not offered.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("/");
  const menu = page.getByRole("listbox", { name: "Commands" });
  await expect(menu.getByRole("option", { name: /\/release-notes Write release notes from the changelog/ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/style-guide House style for Go code: errors and naming\. Use when writing Go\./ })).toBeVisible();
  await expect(menu.getByRole("option", { name: /\/broken/ })).toHaveCount(0);

  // Choosing it sends the next message with the skill loaded: a card, not the body in the bubble.
  await box.pressSequentially("release");
  await expect(menu.getByRole("option")).toHaveCount(1);
  await box.press("Tab");
  await expect(box).toHaveValue("/release-notes ");
  await box.pressSequentially("for v2");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Drafted.");
  const chosen = page.getByRole("group", { name: "skill release-notes loaded" });
  await expect(chosen).toContainText("chosen by you");
  await expect(chosen).toContainText("allowed-tools (shown only, grants no approval): Read Grep");
  await expect(chosen.locator("details")).not.toHaveAttribute("open", "");
  const bubble = page.getByRole("article", { name: "Your message" }).last();
  await expect(bubble).toContainText("for v2");
  await expect(bubble).not.toContainText("Group the changes by area.");
  let reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  const sent = reqs[0].body?.messages?.at(-1)?.content ?? "";
  expect(sent).toContain("Group the changes by area.");
  expect(sent.endsWith("for v2")).toBe(true);

  // The model's own skill call shows the same card; its read_file of the reference shows in a card.
  await send(page, "tidy the errors");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Styled.");
  const loaded = page.getByRole("group", { name: "skill style-guide loaded" });
  await expect(loaded).toContainText("loaded by the model");
  await loaded.getByText(/^Instructions/).click();
  await expect(loaded).toContainText("Read references/x.md before writing Go.");
  await expect(loaded).toContainText("references/x.md");
  const read = page.getByRole("group", { name: /^read_file \/.*\/home\/\.config\/gatehouse\/skills\/style-guide\/references\/x\.md, done$/ });
  await read.getByRole("button", { name: /read_file/ }).click();
  await expect(read).toContainText("Wrap errors with %w.");
  reqs = ((await a.modelRequests()) as Recorded[]).filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  expect(JSON.stringify(reqs.at(-1)?.body?.messages)).toContain("Wrap errors with %w.");
  expect(await a.modelViolations()).toEqual([]);

  // What the model was told: the instruction files with their sizes, the catalog as sent, the loaded skills.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "What the model was told" }).click();
  const told = page.getByRole("dialog", { name: "What the model was told" });
  const files = told.getByRole("region", { name: "Instruction files" }).getByRole("listitem");
  await expect(files).toHaveCount(4);
  await expect(files.nth(0)).toContainText("AGENTS.md");
  await expect(files.nth(0)).toContainText("for every workspace");
  await expect(files.nth(1)).toContainText("CLAUDE.md");
  await expect(files.nth(1)).toContainText("the workspace root's: in the system prompt");
  await expect(files.nth(2)).toContainText("docs/style.md");
  await expect(files.nth(2)).toContainText("18 bytes");
  await expect(files.nth(3)).toContainText("not imported: it lies outside the workspace");
  await expect(told.getByLabel("The catalog as sent")).toContainText("- style-guide: House style for Go code");
  await expect(told.getByLabel("The catalog as sent")).not.toContainText("broken");
  const loadedSkills = told.getByRole("region", { name: "Loaded skills" });
  await expect(loadedSkills.getByRole("listitem")).toHaveCount(2);
  await loadedSkills.getByText("style-guide", { exact: true }).click();
  await expect(loadedSkills).toContainText("Read references/x.md before writing Go.");
  await page.keyboard.press("Escape");
  await expect(told).toHaveCount(0);

  // Settings → Skills: the broken skill with its reason and line, the warned one with its warning.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByRole("tablist", { name: "Settings sections" }).getByRole("tab", { name: "Skills" }).click();
  const list = page.getByRole("tabpanel", { name: "Skills" }).getByRole("list", { name: "Skills" });
  await expect(list.locator('li[data-skill="broken"]')).toContainText("Not offered: line 1: no description: the model could not know when to use the skill");
  await expect(list.locator('li[data-skill="new-name"]')).toContainText(`Warning, line 2: the name "new-name" differs from its folder's, "old-name"`);
  await expect(list.locator('li[data-skill="new-name"]')).toContainText("offered");
  await expect(list.locator('li[data-skill="style-guide"]')).toContainText(`Warning, line 6: unknown key "author"`);
});
