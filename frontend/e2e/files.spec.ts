import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

test("a file created on disk appears in the tree, and its change can be viewed", async ({ app }) => {
  const { page, workspace } = await app({ approvalMode: "safe", files: { "src/main.go": "package main\n", "README.md": "# hi\n" } });
  await page.getByRole("button", { name: "Files" }).click();
  const tree = page.getByRole("tree", { name: "Workspace files" });
  await expect(tree.getByRole("button", { name: "README.md" })).toBeVisible();

  // Written from outside, in a folder that did not exist.
  fs.mkdirSync(path.join(workspace, "docs/new"), { recursive: true });
  fs.writeFileSync(path.join(workspace, "docs/new/notes.md"), "hello\n");
  fs.writeFileSync(path.join(workspace, "README.md"), "# hello\n");

  await tree.getByRole("button", { name: /^docs/ }).click();
  await tree.getByRole("button", { name: /^new/ }).click();
  const notes = tree.getByRole("button", { name: /^notes\.md/ });
  await expect(notes).toBeVisible();
  await expect(notes.getByLabel("added outside Gatehouse")).toHaveText("A");
  const readme = tree.getByRole("button", { name: /^README\.md/ });
  await expect(readme.getByLabel("modified outside Gatehouse")).toHaveText("M");

  await readme.click();
  const viewer = page.getByRole("dialog", { name: "File README.md" });
  const diff = viewer.getByRole("group", { name: "Diff of README.md" });
  await expect(diff).toContainText("# hi");
  await expect(diff).toContainText("# hello");
  await viewer.getByRole("tab", { name: "File" }).click();
  await expect(viewer.getByRole("region", { name: "Content of README.md" })).toContainText("# hello");
  await viewer.getByRole("button", { name: "Close file viewer" }).click();
  await expect(viewer).toBeHidden();
});

test("a new session starts without the old session's badges", async ({ app }) => {
  const { page, workspace } = await app({ approvalMode: "safe", files: { "README.md": "# hi\n" } });
  await page.getByRole("button", { name: "Files" }).click();
  const tree = page.getByRole("tree", { name: "Workspace files" });
  const readme = tree.getByRole("button", { name: /^README\.md/ });
  fs.writeFileSync(path.join(workspace, "README.md"), "# hello\n");
  await expect(readme.getByLabel("modified outside Gatehouse")).toHaveText("M");

  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menuitem", { name: "+ New session" }).click();
  await expect(readme.getByLabel("modified outside Gatehouse")).toHaveCount(0);

  // Changed again: marked again, and diffed against the session's start.
  fs.writeFileSync(path.join(workspace, "README.md"), "# hello again\n");
  await expect(readme.getByLabel("modified outside Gatehouse")).toHaveText("M");
  await readme.click();
  const diff = page.getByRole("dialog", { name: "File README.md" }).getByRole("group", { name: "Diff of README.md" });
  await expect(diff).toContainText("# hello again");
  await expect(diff).not.toContainText("# hi");
});
