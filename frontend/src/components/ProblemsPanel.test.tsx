import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { DiagnosticsUpdatedPayload } from "../bridge";
import type { FilesBackend } from "../bridge/files";
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

  it("opens the file at the problem's line when clicked", async () => {
    let send: (p: DiagnosticsUpdatedPayload) => void = () => {};
    const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const files = { readFile: vi.fn(async (path: string) => ({ path, content, size: content.length, binary: false, truncated: false })) } as unknown as FilesBackend;
    render(<ProblemsPanel subscribe={(cb) => { send = cb; return () => {}; }} files={files} />);
    act(() => send({ files: { "main.go": [{ path: "main.go", line: 12, col: 3, endLine: 12, severity: "error", message: "undefined: x" }] }, servers: [] }));
    fireEvent.click(screen.getByRole("button", { name: "12:3 error undefined: x" }));
    const viewer = await screen.findByRole("dialog", { name: "File main.go" });
    expect(files.readFile).toHaveBeenCalledWith("main.go");
    expect(viewer.textContent).toContain("line 12");
    await screen.findByRole("region", { name: "Content of main.go" });
    expect(viewer.querySelector(".gutter-mark")?.textContent).toBe("12");
    expect(viewer.querySelector<HTMLElement>(".code-line-mark")?.style.top).toBe("16.5em");
  });
});
