// Accessibility: axe-core's WCAG 2.1 A and AA rules on every screen, in the
// light and the dark theme, with no violations.
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { test, expect } from "./harness";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** Runs axe on the page as it is and fails with each violation in words. */
async function noViolations(page: Page, screen: string) {
  const { violations, passes, incomplete } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  if (process.env.AXE_DEBUG) console.log(screen, "passes", passes.map((p) => `${p.id}:${p.nodes.length}`).join(" "), "\nincomplete", incomplete.map((p) => `${p.id}:${p.nodes.length} ${p.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + n.any.map((a) => a.message).join(";")).join(" | ")}`).join("\n  "));
  const words = violations.map((v) =>
    `${v.id} (${v.impact}): ${v.help}\n` + v.nodes.slice(0, 5).map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.replace(/\n/g, " ")}`).join("\n"));
  expect(words, `axe on ${screen}`).toEqual([]);
}

/**
 * The contrast of each comment token in scope against the background it is
 * drawn on (the nearest one set), as WCAG computes it. axe cannot tell the
 * background of rows in a scrolled, absolutely placed list, so the diff's are
 * measured here.
 */
function commentContrasts(scope: Locator): Promise<number[]> {
  return scope.locator(".hljs-comment").evaluateAll((els) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
    const lum = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element | null): string => {
      for (; el; el = el.parentElement) {
        const c = getComputedStyle(el).backgroundColor;
        if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
      }
      return "rgb(255, 255, 255)";
    };
    return els.map((el) => {
      const [a, b] = [lum(getComputedStyle(el).color), lum(background(el))].sort((x, y) => y - x);
      return Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
    });
  });
}

async function commentsReadable(scope: Locator, where: string, atLeast: number) {
  const ratios = await commentContrasts(scope);
  expect(ratios.length, `comments in ${where}`).toBeGreaterThanOrEqual(atLeast);
  for (const r of ratios) expect(r, `a comment in ${where}`).toBeGreaterThanOrEqual(4.5);
}

const source = "package main\n\n// greet says hello to the reader\nfunc greet() {}\n";
const patch = [
  "*** Begin Patch", "*** Update File: main.go", "@@",
  "-// greet says hello to the reader", "-func greet() {}", "+// greet now says it twice", "+func greet() { println(\"hi\"); println(\"hi\") }",
  "*** End Patch",
].join("\n");

const tints = { light: ["rgb(223, 243, 228)", "rgb(251, 227, 225)"], dark: ["rgb(31, 58, 40)", "rgb(69, 32, 31)"] } as const;

for (const theme of ["light", "dark"] as const) {
  test(`no axe violations on any screen, ${theme} theme`, async ({ app }) => {
    // Every screen and each of the fourteen settings sections, axe on each:
    // over a minute on a loaded two-core runner.
    test.setTimeout(240_000);
    const { page } = await app({
      approvalMode: "safe",
      files: { "main.go": source, "README.md": "# hi\n" },
      script: {
        models: ["fake-model"],
        responses: [
          call("call_1", "bash", { action: "start", command: "sleep 300" }),
          { text: "Started it. The code:\n\n```go\n// greet says hello\nfunc greet() {}\n```" },
          call("call_2", "apply_patch", { patch }),
          { text: "Done." },
        ],
      },
    });
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator("html")).toHaveCSS("background-color", theme === "dark" ? "rgb(27, 29, 33)" : "rgb(250, 250, 250)");
    await noViolations(page, "the empty main screen");

    await send(page, "start the server");
    const command = page.getByRole("dialog", { name: /^bash wants to/ });
    await expect(command).toBeVisible();
    await noViolations(page, "the command dialog");
    await command.getByRole("button", { name: "Approve once" }).click();
    await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Started it.");
    const processes = page.getByRole("complementary", { name: "Processes" });
    await expect(processes.getByRole("button", { name: /sleep 300/ })).toBeVisible();
    await expect(page.locator(".hljs-comment").first()).toBeVisible(); // the highlighter is in
    await commentsReadable(page.getByRole("log", { name: "Conversation" }), "the reply's code block", 1);
    await noViolations(page, "the main screen with a reply, a code block and the process panel");

    await send(page, "make it say hi twice");
    const files = page.getByRole("dialog", { name: "apply_patch wants to change main.go" });
    await expect(files).toBeVisible();
    const diff = files.getByRole("group", { name: "Diff of main.go" });
    await expect(diff.locator(".hljs-comment").first()).toBeVisible();
    // The dialog keeps its own tints (never the file viewer's), with markers.
    await expect(diff.locator(".diff-add").first()).toHaveCSS("background-color", tints[theme][0]);
    await expect(diff.locator(".diff-del").first()).toHaveCSS("background-color", tints[theme][1]);
    await expect(diff.locator(".diff-add .diff-mark").first()).toHaveText("+");
    await expect(diff.locator(".diff-del .diff-mark").first()).toHaveText("−");
    await commentsReadable(diff, "the dialog's diff", 2);
    await noViolations(page, "the file diff dialog");
    await files.getByRole("button", { name: "Side by side" }).click();
    await noViolations(page, "the file diff dialog, side by side");
    await commentsReadable(diff, "the dialog's side-by-side diff", 2);
    await files.getByRole("button", { name: "Approve once" }).click();
    await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Done.");

    await page.getByRole("button", { name: "Files" }).click();
    const tree = page.getByRole("tree", { name: "Workspace files" });
    await expect(tree.getByRole("button", { name: /^main\.go/ })).toBeVisible();
    await noViolations(page, "the file tree");
    await tree.getByRole("button", { name: /^main\.go/ }).click();
    const viewer = page.getByRole("dialog", { name: "File main.go" });
    await expect(viewer.getByRole("group", { name: "Diff of main.go" })).toBeVisible();
    await commentsReadable(viewer.getByRole("group", { name: "Diff of main.go" }), "the file viewer's diff", 2);
    await noViolations(page, "the file viewer");
    await viewer.getByRole("button", { name: "Close file viewer" }).click();

    await page.getByRole("button", { name: "Sessions" }).click();
    await expect(page.getByRole("menu", { name: "Sessions" })).toBeVisible();
    await noViolations(page, "the sessions menu");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Model fake-model" }).click();
    await expect(page.getByRole("menu", { name: "Models" })).toBeVisible();
    await noViolations(page, "the model menu");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Find" }).click();
    await page.getByRole("searchbox", { name: "Find in conversation" }).fill("greet");
    await noViolations(page, "the find bar");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("menuitem", { name: "About Gatehouse" }).click();
    await expect(page.getByRole("dialog", { name: "About Gatehouse" })).toBeVisible();
    await noViolations(page, "the About box");
    await page.keyboard.press("Escape");

    await page.locator("body").press("F1");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await noViolations(page, "the shortcuts overlay");
    await page.keyboard.press("Escape");

    await page.getByRole("combobox", { name: "Approval mode" }).selectOption("auto");
    await expect(page.getByText("auto: nothing asks first")).toBeVisible();
    await noViolations(page, "the header in auto mode");

    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    for (const tab of await page.getByRole("tablist", { name: "Settings sections" }).getByRole("tab").all()) {
      const name = (await tab.textContent()) ?? "";
      await tab.click();
      await expect(page.getByRole("tabpanel", { name }).getByRole("heading", { level: 2 })).toBeVisible();
      await noViolations(page, `settings, ${name}`);
    }
  });

  // The screens the first pass does not reach: the Servers panel with a
  // failed server and a workspace list waiting for trust, its add-server
  // form, the agents' trust banner, and the session rules.
  test(`no axe violations on the servers, the trust banners and the rules, ${theme} theme`, async ({ app }) => {
    test.setTimeout(120_000);
    const { page } = await app({
      approvalMode: "safe",
      files: {
        ".gatehouse/mcp.json": JSON.stringify({ mcpServers: { local: { command: "node", args: ["server.js"] } } }),
        ".gatehouse/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews the changes.\ntools: read_file, grep\n---\nReview.\n",
      },
      mcpServers: { broken: { command: "/nonexistent/gatehouse-e2e-server" } },
      script: { models: ["fake-model"], responses: [call("call_1", "bash", { action: "exec", command: "echo hi" }), { text: "Said hi." }] },
    });
    await page.emulateMedia({ colorScheme: theme });
    const banner = page.getByRole("alert", { name: "Workspace agents waiting for trust" });
    await expect(banner).toBeVisible();
    await noViolations(page, "the agents' trust banner");
    await banner.getByRole("button", { name: "Not now" }).click();

    const servers = page.getByRole("complementary", { name: "Servers" });
    await servers.getByRole("button", { name: /^Servers/ }).click();
    await expect(servers.getByRole("alert", { name: "Workspace servers waiting for trust" })).toBeVisible();
    await expect(servers.getByRole("status", { name: "broken state" })).toHaveText("failed", { timeout: 30_000 });
    await noViolations(page, "the servers panel with a failed server and the workspace's trust question");
    await servers.getByRole("button", { name: "Add server" }).click();
    const form = servers.getByRole("form", { name: "Add a server" });
    await expect(form).toBeVisible();
    await noViolations(page, "the add-server form");
    await form.getByRole("radio", { name: /a URL/ }).check();
    await noViolations(page, "the add-server form for a URL");
    await form.getByRole("button", { name: "Cancel" }).click();
    await servers.getByRole("button", { name: /^Servers/ }).click();

    await send(page, "say hi");
    const dialog = page.getByRole("dialog", { name: "bash wants to run a command" });
    await dialog.getByRole("button", { name: "Approve for session" }).click();
    await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Said hi.");
    await page.getByRole("button", { name: "Rules (1)" }).click();
    await expect(page.getByRole("dialog", { name: "Session rules" })).toBeVisible();
    await noViolations(page, "the session rules");
  });

  // A subagent's card nested in its delegate call, a compaction marker, and
  // the review and undo dialogs of a turn.
  test(`no axe violations on a nested agent card, a compaction marker and the review and undo dialogs, ${theme} theme`, async ({ app }) => {
    test.setTimeout(120_000);
    const { page } = await app({
      approvalMode: "auto",
      files: { "main.go": source },
      script: {
        models: ["fake-model"],
        when: [{ lastContains: "checkpoint summary", response: { text: "## Goal\nSay hi twice.\n\n## Next steps\nNone." } }],
        responses: [
          call("c1", "delegate_explore", { task: "what does main.go say?" }),
          call("k1", "read_file", { path: "main.go" }),
          { text: "It greets the reader." },
          call("c2", "apply_patch", { patch }),
          { text: "Done." },
        ],
      },
    });
    await page.emulateMedia({ colorScheme: theme });
    await send(page, "look, then change it");
    await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Done.");
    await expect(page.getByRole("group", { name: /^explore agent, 1 tool call, completed$/ })).toBeVisible();
    await noViolations(page, "a nested agent card");

    const marker = page.getByRole("note", { name: "End of turn" }).first();
    await marker.getByRole("button", { name: "Review changes" }).click();
    const review = page.getByRole("dialog", { name: "Changes of turn 1" });
    await expect(review.getByRole("region", { name: "Changes to main.go" })).toBeVisible();
    await noViolations(page, "the review dialog");
    await review.getByRole("button", { name: "Close" }).click();
    await marker.getByRole("button", { name: "Undo…" }).click();
    const undo = page.getByRole("dialog", { name: "Undo turn 1" });
    await expect(undo.getByRole("region", { name: "Changes to main.go" })).toBeVisible();
    await noViolations(page, "the undo dialog");
    await undo.getByRole("button", { name: "Cancel" }).click();

    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("/compact");
    await box.press("Enter");
    await expect(page.getByRole("note", { name: "Compaction" })).toBeVisible();
    await noViolations(page, "a compaction marker");
  });
}
