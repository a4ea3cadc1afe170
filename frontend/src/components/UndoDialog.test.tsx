import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { UndoFile } from "../bridge";
import { UndoDialog } from "./UndoDialog";

afterEach(cleanup);

const file = (path: string, over: Partial<UndoFile> = {}): UndoFile => ({
  path, by: ["tool"], state: "restore", operation: "update", added: 1, removed: 1,
  turnDiff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old\n+new\n`, undoDiff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-new\n+old\n`,
  prior: "old\n", now: "new\n", ...over,
});

function api(files: UndoFile[]) {
  return {
    units: vi.fn(async () => ["s-t1"]),
    plan: vi.fn(async () => files),
    undo: vi.fn(async () => ({ unit: "undo-1", of: "s-t1", restored: [] })),
    revertFile: vi.fn(async () => ({ unit: "undo-1", of: "file:a", restored: [] })),
  };
}

describe("UndoDialog", () => {
  it("reviews the turn, then undoes what is ticked, keeping a file changed since unless chosen", async () => {
    const a = api([
      file("a.txt"),
      file("b.txt", { state: "changed-since", sinceDiff: "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-new\n+mine\n" }),
      file("gen.txt", { state: "not-restorable", note: "changed by a command: cannot be restored" }),
    ]);
    const onClose = vi.fn();
    render(<UndoDialog unit="s-t1" view="turn" api={a} onClose={onClose} />);
    const dialog = await screen.findByRole("dialog", { name: "Changes of turn 1" });
    await waitFor(() => expect(within(dialog).getByText("3 files changed. Undo… shows what undoing writes.")).toBeTruthy());
    fireEvent.click(within(dialog).getByRole("button", { name: "Undo…" }));
    expect(screen.getByRole("dialog", { name: "Undo turn 1" })).toBe(dialog);
    expect(within(dialog).getByRole("list", { name: "Not restored" }).textContent).toContain("gen.txt: changed by a command: cannot be restored");

    fireEvent.click(within(dialog).getByRole("button", { name: /^b\.txt/ }));
    const conflict = within(dialog).getByRole("group", { name: "b.txt changed since turn 1" });
    expect((within(conflict).getByRole("radio", { name: "Keep the current content" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(a.undo).toHaveBeenCalledWith("s-t1", { files: ["a.txt", "b.txt"], hunks: [], choices: { "b.txt": "keep" } });
  });

  it("shows only the file a tool card reverts", async () => {
    const a = api([file("a.txt"), file("b.txt")]);
    render(<UndoDialog unit="s-t1" view="undo" only="b.txt" api={a} onClose={() => {}} />);
    const dialog = await screen.findByRole("dialog", { name: "Revert b.txt to before turn 1" });
    await waitFor(() => expect(within(dialog).getAllByRole("row")).toHaveLength(1));
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "Undo b.txt" }));
    expect(within(dialog).getByText("Nothing is ticked: tick a file or hunk to undo it.")).toBeTruthy();
    expect((within(dialog).getByRole("button", { name: "Undo selected" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
