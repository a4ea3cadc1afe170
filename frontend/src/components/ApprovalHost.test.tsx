import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ApprovalRequestedPayload } from "../bridge";
import { ApprovalHost } from "./ApprovalHost";

afterEach(cleanup);

const ask = (id: string, agent: string | undefined, tool: string): ApprovalRequestedPayload =>
  ({ approvalId: id, callId: `c-${id}`, tool, agent, preview: { kind: "args", summary: "", args: {} } }) as ApprovalRequestedPayload;

describe("the approval queue", () => {
  const pending = [ask("a1", undefined, "bash"), ask("a2", "reviewer", "apply_patch"), ask("a3", "writer", "write_file")];

  it("shows the oldest request first, titled with its teammate, and names every other one waiting", () => {
    render(<ApprovalHost api={{ resolve: vi.fn(), repreview: vi.fn() }} pending={pending.slice(1)} mode="safe" />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("reviewer › apply_patch wants to run with these arguments");
    expect(screen.getByLabelText("request 1 of 2")).toBeTruthy();
    expect(screen.getByText("Also waiting: writer › write_file")).toBeTruthy();
  });

  it("brings the request asked for to the front and answers that one", () => {
    const resolve = vi.fn(async () => {});
    render(<ApprovalHost api={{ resolve, repreview: vi.fn() }} pending={pending} mode="safe" front="a3" />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("writer › write_file wants to run with these arguments");
    expect(screen.getByLabelText("request 3 of 3")).toBeTruthy();
    expect(screen.getByText("Also waiting: bash, reviewer › apply_patch")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    expect(resolve).toHaveBeenCalledWith("a3", { kind: "once" });
  });

  it("falls back to the oldest once the request asked for is answered", () => {
    render(<ApprovalHost api={{ resolve: vi.fn(), repreview: vi.fn() }} pending={pending.slice(0, 2)} mode="safe" front="a3" />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("bash wants to run with these arguments");
  });
});
