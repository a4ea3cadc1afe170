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

    await page.getByRole("combobox", { name: "Approval mode" }).selectOption("auto");
    await expect(page.getByText("auto: nothing asks first")).toBeVisible();
    await noViolations(page, "the header in auto mode");

    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    await noViolations(page, "settings");
  });
}
