// The approval dialog by keyboard alone: the note field's shortcut rejects,
// and a long diff can be read to its end.
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { test, expect } from "./harness";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** Whether target has the keyboard focus. */
const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

test("Ctrl+Enter in the note field rejects the call with that note", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "a.txt": "one\n" },
    script: {
      models: ["fake-model"],
      responses: [call("call_1", "apply_patch", { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** End Patch" })],
    },
  });
  await send(page, "translate it");
  const dialog = page.getByRole("dialog", { name: "apply_patch wants to change a.txt" });
  await expect(dialog).toBeVisible();
  // The page behind is inert: Tab never leaves the dialog, and the header,
  // the composer and Settings are out of reach.
  for (const name of ["Settings", "Approval mode", "Message"]) {
    expect(await page.getByLabel(name, { exact: true }).first().evaluate((el) => el.closest("[inert]") !== null), name).toBe(true);
  }
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  const note = dialog.getByRole("textbox", { name: "Note to the model (optional)" });
  await note.click();
  await page.keyboard.type("keep it in English");
  await page.keyboard.press("Control+Enter");
  await expect(dialog).toHaveCount(0);
  expect(await page.getByLabel("Message", { exact: true }).evaluate((el) => el.closest("[inert]") === null)).toBe(true);

  await expect(page.getByRole("note", { name: "End of turn" })).toContainText("blocked: you rejected apply_patch — note: keep it in English");
  expect(fs.readFileSync(path.join(workspace, "a.txt"), "utf8")).toBe("one\n");
});

test("a 300-row diff can be read to its end with the keyboard alone", async ({ app }) => {
  const n = 150;
  const lines = (w: string) => Array.from({ length: n }, (_, i) => `${w} ${i + 1}`);
  const patch = ["*** Begin Patch", "*** Update File: big.txt", "@@", ...lines("-old"), ...lines("+new"), "*** End Patch"].join("\n");
  const { page, workspace } = await app({
    approvalMode: "safe",
    files: { "big.txt": lines("old").join("\n") + "\n" },
    script: { models: ["fake-model"], responses: [call("call_1", "apply_patch", { patch })] },
  });
  await send(page, "renew every line");
  const dialog = page.getByRole("dialog", { name: "apply_patch wants to change big.txt" });
  await expect(dialog).toBeVisible();
  const scroller = dialog.getByRole("group", { name: "Diff of big.txt" });
  const hunk = dialog.getByRole("checkbox", { name: "Apply hunk 1 of big.txt" });
  const last = scroller.getByText(`new ${n}`, { exact: true });

  // Tab from the file list to the hunk's checkbox, through the diff itself.
  let passedScroller = false;
  for (let i = 0; i < 10 && !(await focused(hunk)); i++) {
    await page.keyboard.press("Tab");
    passedScroller ||= await focused(scroller);
  }
  expect(passedScroller).toBe(true);
  expect(await focused(hunk)).toBe(true);

  // PageDown from there reads on, though the virtual list drops the
  // checkbox's row: focus stays in the diff, never falls to the page.
  const atEnd = () => scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1);
  for (let i = 0; i < 60 && !(await atEnd()); i++) {
    await page.keyboard.press("PageDown");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await expect(last).toBeInViewport();
  expect(await focused(scroller)).toBe(true);

  await page.keyboard.press("Home");
  await expect(hunk).toBeInViewport();
  await page.keyboard.press("End");
  await expect(last).toBeInViewport();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("PageUp");
  await expect(scroller.getByText(`new ${n - 20}`, { exact: true })).toBeInViewport();
  expect(fs.readFileSync(path.join(workspace, "big.txt"), "utf8")).toBe(lines("old").join("\n") + "\n");
});
