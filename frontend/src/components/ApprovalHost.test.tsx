import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ApprovalRequestedPayload } from "../bridge";
import { ApprovalHost } from "./ApprovalHost";

afterEach(cleanup);

const ask = (id: string, agent: string | undefined, tool: string): ApprovalRequestedPayload =>
  ({ approvalId: id, callId: `c-${id}`, tool, agent, preview: { kind: "args", summary: "", args: {} } }) as ApprovalRequestedPayload;

const title = () => screen.getByRole("heading", { level: 2 }).textContent;
const others = () => document.querySelector(".approval-others")?.textContent;

describe("the approval queue", () => {
  const pending = [ask("a1", undefined, "bash"), ask("a2", "reviewer", "apply_patch"), ask("a3", "writer", "write_file")];
  const api = () => ({ resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}) });

  it("shows the oldest request first, titled with its teammate, and names every other one waiting", () => {
    render(<ApprovalHost api={api()} pending={pending.slice(1)} mode="safe" />);
    expect(title()).toBe("reviewer › apply_patch wants to run with these arguments");
    expect(screen.getByLabelText("request 1 of 2")).toBeTruthy();
    expect(others()).toBe("Also waiting: writer › write_file");
  });

  it("brings the request asked for to the front and answers that one", () => {
    const a = api();
    render(<ApprovalHost api={a} pending={pending} mode="safe" front="a3" />);
    expect(title()).toBe("writer › write_file wants to run with these arguments");
    expect(screen.getByLabelText("request 3 of 3")).toBeTruthy();
    expect(others()).toBe("Also waiting: bash, reviewer › apply_patch");
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    expect(a.resolve).toHaveBeenCalledWith("a3", { kind: "once" });
  });

  it("falls back to the oldest once the request asked for is answered", () => {
    render(<ApprovalHost api={api()} pending={pending.slice(0, 2)} mode="safe" front="a3" />);
    expect(title()).toBe("bash wants to run with these arguments");
  });

  it("opens a held request (a teammate's) only when asked for, and shows another named in the queue on a click", () => {
    const held = (a: ApprovalRequestedPayload) => !!a.agent;
    const onFront = vi.fn();
    const { rerender } = render(<ApprovalHost api={api()} pending={pending.slice(1)} mode="safe" held={held} onFront={onFront} />);
    expect(screen.queryByRole("dialog")).toBeNull();
    rerender(<ApprovalHost api={api()} pending={pending} mode="safe" held={held} onFront={onFront} />);
    expect(title()).toBe("bash wants to run with these arguments");
    fireEvent.click(screen.getByRole("button", { name: "Show writer › write_file instead" }));
    expect(onFront).toHaveBeenCalledWith("a3");
    rerender(<ApprovalHost api={api()} pending={pending.slice(1)} mode="safe" held={held} onFront={onFront} front="a2" />);
    expect(title()).toBe("reviewer › apply_patch wants to run with these arguments");
  });
});
