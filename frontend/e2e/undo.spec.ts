import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, send, toolCall as call } from "./harness";

const aText = "one\ntwo\nthree\n4\n5\n6\n7\n8\n9\nten\neleven\ntwelve\n";
// Two hunks in a.txt (lines 2 and 11), one in b.txt.
const twoFilePatch = [
  "*** Begin Patch",
  "*** Update File: a.txt", "@@", " one", "-two", "+TWO", " three", "@@", " ten", "-eleven", "+ELEVEN", " twelve",
  "*** Update File: b.txt", "@@", "-alpha", "+ALPHA",
  "*** End Patch",
].join("\n");

test("review a turn's changes, undo one hunk and one file, and a later change is marked", async ({ app }) => {
  const { page, workspace, modelRequests } = await app({
    approvalMode: "auto",
    files: { "a.txt": aText, "b.txt": "alpha\n", "c.txt": "old c\n" },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "apply_patch", { patch: twoFilePatch }),
        call("call_2", "write_file", { path: "c.txt", content: "new c\n" }),
        { text: "Changed three files." },
        call("call_3", "write_file", { path: "b.txt", content: "beta\n" }),
        { text: "Changed b again." },
      ],
    },
  });
  const read = (f: string) => fs.readFileSync(path.join(workspace, f), "utf8");
  await send(page, "change things");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Changed three files.");
  const marker = page.getByRole("note", { name: "End of turn" }).first();

  // Review: every file the turn changed, in the approval dialog's diff view.
  await marker.getByRole("button", { name: "Review changes" }).click();
  const review = page.getByRole("dialog", { name: "Changes of turn 1" });
  const list = review.getByRole("grid", { name: "Files" });
  for (const f of ["a.txt", "b.txt", "c.txt"]) await expect(list.getByRole("button", { name: new RegExp(`^${f.replace(".", "\\.")}`) })).toBeVisible();
  await expect(review.getByRole("region", { name: "Changes to a.txt" })).toContainText("ELEVEN");
  await review.getByRole("button", { name: "Close" }).click();
  await expect(review).toHaveCount(0);

  // The file tree: all three changed; a.txt open in the viewer.
  await page.getByRole("button", { name: "Files", exact: true }).click();
  const changed = page.getByRole("list", { name: "Changed files" });
  await expect(changed.getByRole("button", { name: /^c\.txt/ })).toBeVisible();
  await changed.getByRole("button", { name: /^a\.txt/ }).click();
  const viewer = page.getByRole("dialog", { name: "File a.txt" });
  await viewer.getByRole("tab", { name: "File" }).click();
  await expect(viewer.getByRole("region", { name: "Content of a.txt" })).toContainText("TWO");

  // Undo one hunk of a.txt and all of c.txt; b.txt stays. (The viewer
  // floats over the chat: the marker's button is reached by keyboard.)
  await marker.getByRole("button", { name: "Undo…" }).press("Enter");
  const undo = page.getByRole("dialog", { name: "Undo turn 1" });
  await expect(undo.getByRole("region", { name: "Changes to a.txt" })).toContainText("two");
  await undo.getByRole("checkbox", { name: "Undo b.txt" }).uncheck();
  await undo.getByRole("checkbox", { name: "Undo hunk 2 of a.txt" }).uncheck();
  await expect(undo.getByRole("button", { name: "Undo selected" })).toBeVisible();
  await undo.getByRole("button", { name: "Undo selected" }).click();
  await expect(undo).toHaveCount(0);
  expect(read("a.txt")).toBe(aText.replace("eleven", "ELEVEN"));
  expect(read("c.txt")).toBe("old c\n");
  expect(read("b.txt")).toBe("ALPHA\n");

  // The transcript records the undo; the tree and the viewer follow.
  await expect(page.getByRole("note", { name: "Undo 1" })).toContainText("restored a.txt, c.txt");
  await expect(changed.getByRole("button", { name: /^c\.txt/ })).toHaveCount(0);
  await expect(viewer.getByRole("region", { name: "Content of a.txt" })).toContainText("two");
  await expect(viewer.getByRole("region", { name: "Content of a.txt" })).toContainText("ELEVEN");

  // A second turn changes b.txt again: undoing turn 1 marks it and keeps it by default.
  await viewer.getByRole("button", { name: "Close file viewer" }).click();
  await send(page, "change b");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Changed b again.");
  await marker.getByRole("button", { name: "Undo…" }).click();
  const again = page.getByRole("dialog", { name: "Undo turn 1" });
  await again.getByRole("button", { name: /^b\.txt/ }).click();
  const conflict = again.getByRole("group", { name: "b.txt changed since turn 1" });
  await expect(conflict).toBeVisible();
  await expect(again.getByRole("button", { name: /^b\.txt.*changed since turn 1/ })).toBeVisible();
  await expect(conflict.getByRole("radio", { name: "Keep the current content" })).toBeChecked();
  // The dialog passes axe's WCAG A and AA rules.
  const axe = await new AxeBuilder({ page }).include(".undo-dialog").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expect(conflict.getByRole("group", { name: "Diff of What turn 1 did to b.txt" })).toContainText("ALPHA");
  await expect(conflict.getByRole("group", { name: "Diff of What changed b.txt since" })).toContainText("beta");
  await again.getByRole("button", { name: /^Undo/ }).last().click();
  await expect(again).toHaveCount(0);
  expect(read("b.txt")).toBe("beta\n");

  // Turn 2's request told the model which files the user reverted.
  const requests = JSON.stringify(await modelRequests());
  expect(requests).toContain("the user reverted these files to an earlier content (undo): a.txt, c.txt");
});

test("revert a file from its tool card and from the badge menu; an undo can be undone", async ({ app }) => {
  const { page, workspace } = await app({
    approvalMode: "auto",
    files: { "a.txt": "old a\n", "b.txt": "old b\n" },
    script: {
      models: ["fake-model"],
      responses: [
        call("call_1", "write_file", { path: "a.txt", content: "new a\n" }),
        call("call_2", "write_file", { path: "b.txt", content: "new b\n" }),
        { text: "Wrote two files." },
      ],
    },
  });
  const read = (f: string) => fs.readFileSync(path.join(workspace, f), "utf8");
  await send(page, "write");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Wrote two files.");

  // From the tool card: the dialog shows that file only, then restores it.
  await page.getByRole("group", { name: "write_file a.txt, done" }).getByRole("button", { name: /^write_file a\.txt/ }).click();
  await page.getByRole("button", { name: "Revert a.txt" }).click();
  const dialog = page.getByRole("dialog", { name: "Revert a.txt to before turn 1" });
  await expect(dialog.getByRole("grid", { name: "Files" }).getByRole("row")).toHaveCount(1);
  await expect(dialog.getByRole("region", { name: "Changes to a.txt" })).toContainText("old a");
  await dialog.getByRole("button", { name: "Undo", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  expect(read("a.txt")).toBe("old a\n");
  expect(read("b.txt")).toBe("new b\n");

  // The undo is in the transcript and can itself be undone.
  const marker = page.getByRole("note", { name: "Undo 1" });
  await expect(marker).toContainText("Undid turn 1: restored a.txt");
  await marker.getByRole("button", { name: "Undo this undo…" }).click();
  const redo = page.getByRole("dialog", { name: "Undo undo 1" });
  await redo.getByRole("button", { name: "Undo", exact: true }).click();
  await expect(redo).toHaveCount(0);
  expect(read("a.txt")).toBe("new a\n");

  // From the file tree's badge menu: b.txt goes back, and its badge with it.
  await page.getByRole("button", { name: "Files", exact: true }).click();
  const changed = page.getByRole("list", { name: "Changed files" });
  await changed.getByRole("button", { name: /Actions for b\.txt$/ }).click();
  await page.getByRole("menuitem", { name: "Revert to before this session" }).click();
  await expect(changed.getByRole("button", { name: /^b\.txt/ })).toHaveCount(0);
  expect(read("b.txt")).toBe("old b\n");
  await expect(changed.getByRole("button", { name: /^a\.txt/ })).toBeVisible();
});
