import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReviewBackend, ReviewFinding, ReviewReport } from "../../bridge/review";
import { ReviewPanel } from "./ReviewPanel";
import { ExportDialog } from "../ExportDialog";

afterEach(cleanup);

const diff = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-one\n+ONE\n two\n three\n@@ -10,3 +10,3 @@\n-ten\n+TEN\n x\n y\n";
const finding = (id: string, over: Partial<ReviewFinding>): ReviewFinding => ({
  id, severity: "high", file: "a.txt", startLine: 1, endLine: 1, title: "t", explanation: "e", ...over,
});
const report: ReviewReport = {
  id: "review-1", target: { kind: "uncommitted" }, status: "completed", summary: "Two findings.",
  files: [{ path: "a.txt", status: "M", added: 2, removed: 2, diff,
    hunks: [{ header: "@@ -1,3 +1,3 @@", id: "h1" }, { header: "@@ -10,3 +10,3 @@", id: "h2" }] }],
  findings: [
    finding("f1", { title: "shouting", explanation: "ONE is loud", hunkId: "h1", hunkHeader: "@@ -1,3 +1,3 @@", suggestion: "one" }),
    finding("f2", { severity: "low", startLine: 10, endLine: 10, title: "also loud", hunkId: "h2", hunkHeader: "@@ -10,3 +10,3 @@" }),
  ],
};

function fakeReview(): ReviewBackend & { refresh: ReturnType<typeof vi.fn> } {
  return {
    run: vi.fn(async () => report),
    refresh: vi.fn(async (fs: ReviewFinding[]) => fs.map((f) => (f.id === "f1" ? { ...f, outdated: true } : f))),
    exportSession: vi.fn(async () => "/data/exports/s.html"),
  };
}

describe("ReviewPanel", () => {
  it("shows each finding as a comment on its hunk, lists them, and Fix sends a message quoting the finding", async () => {
    const review = fakeReview();
    const fix = vi.fn(async () => ({ queued: false }));
    const { rerender } = render(<ReviewPanel review={review} fix={fix} refresh={0} />);
    fireEvent.click(screen.getByRole("button", { name: "Review" }));
    await screen.findByRole("complementary", { name: "Findings" });
    expect(review.run).toHaveBeenCalledWith({ kind: "uncommitted" });
    const comments = screen.getAllByRole("note");
    expect(comments.map((c) => c.getAttribute("aria-label"))).toEqual(["Finding: shouting", "Finding: also loud"]);
    // Each comment sits in its hunk's header row, in order: the first hunk's, then the second's.
    const headers = comments.map((c) => c.closest(".diff-hunk")?.querySelector(".diff-hunk-header")?.textContent);
    expect(headers).toEqual(["@@ -1,3 +1,3 @@", "@@ -10,3 +10,3 @@"]);
    fireEvent.click(within(screen.getByRole("complementary", { name: "Findings" })).getByRole("button", { name: "Fix: shouting" }));
    await waitFor(() => expect(fix).toHaveBeenCalledTimes(1));
    const sent = (fix.mock.calls[0] as unknown as [string])[0];
    expect(sent).toContain("[high] a.txt:1: shouting");
    expect(sent).toContain("ONE is loud");
    expect(sent).toContain("In the hunk @@ -1,3 +1,3 @@.");
    expect(sent).toContain("```\none\n```");
    // The workspace changed: the fixed finding is marked outdated.
    rerender(<ReviewPanel review={review} fix={fix} refresh={1} />);
    await waitFor(() => expect(screen.getByRole("listitem", { name: "high: shouting" }).textContent).toContain("outdated"));
    fireEvent.click(within(screen.getByRole("complementary", { name: "Findings" })).getByRole("button", { name: "Dismiss: also loud" }));
    expect(screen.queryByRole("note", { name: "Finding: also loud" })).toBeNull();
  });

  it("reviews a turn's changes at once when opened from the turn", async () => {
    const review = fakeReview();
    render(<ReviewPanel review={review} fix={vi.fn(async () => ({}))} refresh={0} initial={{ kind: "turn", ref: "turn-2" }} />);
    await screen.findByRole("complementary", { name: "Findings" });
    expect(review.run).toHaveBeenCalledTimes(1);
    expect(review.run).toHaveBeenCalledWith({ kind: "turn", ref: "turn-2" });
    expect((screen.getByRole("combobox", { name: "What to review" }) as HTMLSelectElement).value).toBe("turn");
    expect(screen.getAllByRole("note").map((c) => c.getAttribute("aria-label"))).toEqual(["Finding: shouting", "Finding: also loud"]);
  });

  it("moves between findings with n and p", async () => {
    render(<ReviewPanel review={fakeReview()} fix={vi.fn(async () => ({}))} refresh={0} />);
    fireEvent.click(screen.getByRole("button", { name: "Review" }));
    const list = await screen.findByRole("complementary", { name: "Findings" });
    fireEvent.keyDown(list, { key: "n" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("high: shouting");
    fireEvent.keyDown(list, { key: "n" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("low: also loud");
    fireEvent.keyDown(list, { key: "p" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("high: shouting");
  });

  it("asks for a ref before reviewing a branch against its base", () => {
    render(<ReviewPanel review={fakeReview()} fix={vi.fn()} refresh={0} />);
    fireEvent.change(screen.getByRole("combobox", { name: "What to review" }), { target: { value: "base" } });
    expect(screen.getByRole("button", { name: "Review" })).toHaveProperty("disabled", true);
    fireEvent.input(screen.getByRole("textbox", { name: "Base branch" }), { target: { value: "main" } });
    expect(screen.getByRole("button", { name: "Review" })).toHaveProperty("disabled", false);
  });
});

describe("ExportDialog", () => {
  it("exports the open session in the chosen format and says where the file went", async () => {
    const review = fakeReview();
    render(<ExportDialog backend={review} onClose={() => {}} />);
    fireEvent.change(screen.getByRole("combobox", { name: "Format" }), { target: { value: "md" } });
    fireEvent.input(screen.getByRole("textbox", { name: "Turns" }), { target: { value: "2-3" } });
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    expect(await screen.findByRole("status")).toHaveProperty("textContent", "Written to /data/exports/s.html");
    expect(review.exportSession).toHaveBeenCalledWith({ sessionId: "", format: "md", turns: "2-3", embedImages: false });
  });
});
