import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import type { DiagnosticsUpdatedPayload } from "../bridge";
import { ProblemsPanel } from "./ProblemsPanel";

afterEach(cleanup);

describe("the Problems panel", () => {
  it("lists the servers' diagnostics by file, errors first, and a crashed server", () => {
    let send: (p: DiagnosticsUpdatedPayload) => void = () => {};
    render(<ProblemsPanel subscribe={(cb) => { send = cb; return () => {}; }} />);
    expect(screen.getByText("No problems in the files the language servers have open.")).toBeTruthy();
    act(() => send({
      files: { "main.go": [
        { path: "main.go", line: 9, col: 1, endLine: 9, severity: "warning", message: "unused" },
        { path: "main.go", line: 6, col: 14, endLine: 6, severity: "error", message: "undefined: undefinedName" }], "ok.go": [] },
      servers: [{ name: "pyright", command: "pyright-langserver", state: "crashed", error: "exit status 1", restarts: 0, confined: true }],
    }));
    const items = screen.getAllByRole("button").map((b) => b.textContent);
    expect(items).toEqual(["6:14 error undefined: undefinedName", "9:1 warning unused"]);
    expect(screen.queryByText("ok.go")).toBeNull();
    expect(screen.getByText("⚠ pyright crashed: exit status 1")).toBeTruthy();
  });
});
