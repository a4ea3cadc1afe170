import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { DiffView, VIRTUAL_ROWS } from "./DiffView";
import { giveLayout } from "../test/fakeBackend";

const diff = "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-let b = 2;\n+let b = 3;\n const c = 4;\n";

afterEach(cleanup);

describe("DiffView", () => {
  it("draws lines with +/− markers, tints and words, highlighted for the file's language", () => {
    render(<DiffView diff={diff} label="src/a.ts" />);
    const view = screen.getByRole("group", { name: "Diff of src/a.ts" });
    const add = view.querySelector(".diff-add")!;
    expect(add.querySelector(".diff-mark")?.textContent).toBe("+");
    expect(add.textContent).toContain("added: ");
    expect(view.querySelector(".diff-del .diff-mark")?.textContent).toBe("−");
    expect(add.querySelector(".diff-code")?.textContent).toBe("let b = 3;");
    expect(add.querySelector(".hljs-keyword")?.textContent).toBe("let");
    expect(within(view).getByText("@@ -1,3 +1,3 @@")).toBeTruthy();
  });

  it("gives the old and the new line number each its own column inline", () => {
    const d = "--- a/f\n+++ b/f\n@@ -5,3 +5,4 @@\n five\n+inserted\n six\n-seven\n+SEVEN\n";
    const { container } = render(<DiffView diff={d} />);
    const rows = [...container.querySelectorAll(".diff-half")];
    const cols = rows.map((r) => [r.querySelector(".diff-ln-old")?.textContent, r.querySelector(".diff-ln-new")?.textContent]);
    expect(cols).toEqual([["5", "5"], ["", "6"], ["6", "7"], ["7", ""], ["", "8"]]);
    // Each number is its own element, never one run of text.
    expect(rows[2].querySelectorAll(".diff-ln")).toHaveLength(2);
  });

  it("puts the old and new line side by side", () => {
    const { container } = render(<DiffView diff={diff} layout="split" />);
    const pairs = container.querySelectorAll(".diff-pair");
    expect(pairs).toHaveLength(3);
    const changed = pairs[1].querySelectorAll(".diff-half");
    expect(changed[0].className).toContain("diff-del");
    expect(changed[0].textContent).toContain("let b = 2;");
    expect(changed[1].className).toContain("diff-add");
    expect(changed[1].textContent).toContain("let b = 3;");
  });

  it("draws the caller's control on each @@ row", () => {
    const two = diff + "@@ -9 +9 @@\n-x\n+y\n";
    render(<DiffView diff={two} hunkControl={(b, h) => <input type="checkbox" aria-label={`hunk ${b} ${h}`} onChange={() => {}} />} />);
    expect(screen.getByRole("checkbox", { name: "hunk 0 @@ -1,3 +1,3 @@" })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "hunk 1 @@ -9 +9 @@" }));
  });

  it("draws only the rows near the viewport of a long diff", async () => {
    giveLayout();
    const n = 5000;
    let big = `--- a/big.go\n+++ b/big.go\n@@ -1,${n} +1,${n} @@\n`;
    for (let i = 0; i < n; i++) big += (i % 2 ? "+" : "-") + `x := ${i}\n`;
    const { container } = render(<DiffView diff={big} fill />);
    await waitFor(() => expect(container.querySelectorAll(".diff-row").length).toBeGreaterThan(0));
    expect(container.querySelectorAll(".diff-row").length).toBeLessThan(VIRTUAL_ROWS);
  });

  it("takes focus and scrolls with the keys wherever focus is inside it", () => {
    render(<DiffView diff={diff} label="src/a.ts" hunkControl={() => <input type="checkbox" aria-label="hunk" onChange={() => {}} />} />);
    const scroller = screen.getByRole("group", { name: "Diff of src/a.ts" });
    expect(scroller.tabIndex).toBe(0);
    Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 6000 });
    Object.defineProperty(scroller, "clientHeight", { configurable: true, value: 400 });
    const box = screen.getByRole("checkbox", { name: "hunk" });
    box.focus();
    fireEvent.keyDown(box, { key: "PageDown" });
    expect(scroller.scrollTop).toBe(380);
    expect(document.activeElement).toBe(scroller); // a row leaving the DOM cannot take focus with it
    fireEvent.keyDown(scroller, { key: "ArrowDown" });
    expect(scroller.scrollTop).toBe(400);
    fireEvent.keyDown(scroller, { key: "End" });
    expect(scroller.scrollTop).toBe(5600);
    fireEvent.keyDown(scroller, { key: "PageUp" });
    expect(scroller.scrollTop).toBe(5220);
    fireEvent.keyDown(scroller, { key: "Home" });
    expect(scroller.scrollTop).toBe(0);
    Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 400 });
    expect(fireEvent.keyDown(scroller, { key: "PageDown" })).toBe(true); // fits: not taken from the page
  });

  it("says so when there is nothing to show", () => {
    render(<DiffView diff="" />);
    expect(screen.getByText("No changes to show.")).toBeTruthy();
  });
});
