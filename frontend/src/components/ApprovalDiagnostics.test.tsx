import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ApprovalRequestedPayload } from "../bridge";
import { ApprovalDialog } from "./ApprovalDialog";

afterEach(cleanup);

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

const dialog = (r: ApprovalRequestedPayload) =>
  render(<ApprovalDialog request={r} position={1} total={1} mode="manual" onAnswer={vi.fn(async () => {})} onRepreview={vi.fn(async () => {})} />);

describe("the approval dialog's diagnostics", () => {
  it("says checking while the language servers work", () => {
    dialog(request({ approvalId: "a1", state: "checking" }));
    expect(screen.getByText("Language servers: checking…")).toBeTruthy();
  });

  it("says which hunk introduces an error, and unticking that hunk clears it", () => {
    dialog(request({ approvalId: "a1", state: "done", files: [{ path: "main.go", hunks: { "main.go#2": 1 }, introduced: [
      { path: "main.go", line: 6, col: 14, endLine: 6, severity: "error", message: "undefined: undefinedName" }] }] }));
    expect(screen.getByText("introduces 1 error")).toBeTruthy();
    expect(screen.getByText(/hunk 2: introduces 1 error/)).toBeTruthy();
    expect(screen.getByText("6:14 error undefined: undefinedName")).toBeTruthy();
    fireEvent.click(screen.getByLabelText("Apply hunk 2 of main.go"));
    expect(screen.queryByText("introduces 1 error")).toBeNull();
    expect(screen.getByText("Language servers: introduces no errors")).toBeTruthy();
  });

  it("says a timeout in a line", () => {
    dialog(request({ approvalId: "a1", state: "timeout", note: "gopls timed out after 10s" }));
    expect(screen.getByText("Language servers: gopls timed out after 10s")).toBeTruthy();
  });
});
