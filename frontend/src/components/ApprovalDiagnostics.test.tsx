import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ApprovalRequestedPayload, ProposalSelection } from "../bridge";
import { ApprovalDialog } from "./ApprovalDialog";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const request = (diagnostics?: ApprovalRequestedPayload["diagnostics"]): ApprovalRequestedPayload => ({
  approvalId: "a1", callId: "c1", tool: "apply_patch",
  preview: {
    kind: "files", summary: "apply_patch: main.go", partial: true,
    files: [{
      path: "main.go", operation: "update", added: 2, removed: 2, oldHash: "", oldContent: "", newContent: "",
      diff: "--- a/main.go\n+++ b/main.go\n@@ -2 +2 @@\n-a\n+b\n@@ -6 +6 @@\n-x\n+y\n",
      hunks: [
        { id: "main.go#1", oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, diff: "@@ -2 +2 @@\n-a\n+b\n" },
        { id: "main.go#2", oldStart: 6, oldLines: 1, newStart: 6, newLines: 1, diff: "@@ -6 +6 @@\n-x\n+y\n" },
      ],
    }],
  },
  diagnostics,
});

const broken = (): ApprovalRequestedPayload["diagnostics"] => ({ approvalId: "a1", state: "done", files: [{ path: "main.go", hunks: { "main.go#2": 1 }, introduced: [
  { path: "main.go", line: 6, col: 14, endLine: 6, severity: "error", message: "undefined: undefinedName", hunk: "main.go#2", shownLine: 6 }] }] });

const dialog = (r: ApprovalRequestedPayload, onRecheck?: (sel: ProposalSelection) => Promise<void>) =>
  render(<ApprovalDialog request={r} position={1} total={1} mode="manual" onAnswer={vi.fn(async () => {})} onRepreview={vi.fn(async () => {})} onRecheck={onRecheck} />);

describe("the approval dialog's diagnostics", () => {
  it("says checking while the language servers work", () => {
    dialog(request({ approvalId: "a1", state: "checking" }));
    expect(screen.getByText("Language servers: checking…")).toBeTruthy();
  });

  it("says which hunk introduces an error; unticking it asks the servers to check the rest, and shows their answer for it", async () => {
    vi.useFakeTimers();
    const recheck = vi.fn(async (_: ProposalSelection) => {});
    const first = request(broken());
    const { rerender } = dialog(first, recheck);
    expect(screen.getByText("introduces 1 error")).toBeTruthy();
    expect(screen.getByText(/hunk 2: introduces 1 error/)).toBeTruthy();
    expect(screen.getByText("6:14 error undefined: undefinedName")).toBeTruthy();
    expect(recheck).not.toHaveBeenCalled();

    fireEvent.click(screen.getByLabelText("Apply hunk 2 of main.go"));
    // The whole change's answer is not the ticked part's: checking again.
    expect(screen.queryByText("introduces 1 error")).toBeNull();
    expect(screen.getByText("Language servers: checking…")).toBeTruthy();
    await act(async () => { vi.advanceTimersByTime(200); });
    expect(recheck).toHaveBeenCalledTimes(1);
    expect(recheck).toHaveBeenCalledWith({ files: [], hunks: ["main.go#1"] });

    const next = { ...first, diagnostics: { approvalId: "a1", state: "done", files: [{ path: "main.go", introduced: [] }], selection: { files: [], hunks: ["main.go#1"] } } };
    rerender(<ApprovalDialog request={next} position={1} total={1} mode="manual" onAnswer={vi.fn(async () => {})} onRepreview={vi.fn(async () => {})} onRecheck={recheck} />);
    expect(screen.getByText("Language servers: introduces no errors")).toBeTruthy();
  });

  it("marks the line of each problem in the diff, its message on focus", () => {
    dialog(request(broken()));
    const mark = screen.getByRole("button", { name: "line 6: error undefined: undefinedName" });
    expect(mark.textContent).toContain("●");
    fireEvent.focus(mark);
    expect(screen.getByRole("tooltip").textContent).toBe("6:14 error undefined: undefinedName");
  });

  it("says a timeout in a line", () => {
    dialog(request({ approvalId: "a1", state: "timeout", note: "gopls timed out after 10s" }));
    expect(screen.getByText("Language servers: gopls timed out after 10s")).toBeTruthy();
  });
});
