import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Leftover, LeftoverBackend, SandboxBackend, SandboxView } from "../bridge/sandbox";
import type { AppState } from "../bridge";
import { SandboxSettings } from "./SandboxSettings";
import { ProcessLeftovers } from "./ProcessLeftovers";
import { ApprovalCommand } from "./ApprovalCommand";
import { Header } from "./Header";

afterEach(cleanup);

const confined: SandboxView = {
  mode: "workspace-write", available: true, confined: true, denyTCP: false,
  writable: ["/home/u/project", "/tmp", "/home/u/.npm"],
};

describe("SandboxSettings", () => {
  it("shows where confined commands write and saves the mode and the TCP choice", async () => {
    const set = vi.fn(async (mode: string, denyTCP: boolean): Promise<SandboxView> =>
      mode === "off"
        ? { ...confined, mode, denyTCP, confined: false, reason: "The sandbox is off (Settings): commands can write anywhere you can." }
        : { ...confined, mode, denyTCP });
    const backend: SandboxBackend = { get: async () => confined, set };
    render(<SandboxSettings backend={backend} />);
    expect(await screen.findByText("Commands run confined.")).toBeTruthy();
    expect(screen.getByText("/home/u/.npm")).toBeTruthy();
    expect(screen.getByText(/UDP, DNS included, cannot be refused/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/Refuse network connections/));
    await waitFor(() => expect(set).toHaveBeenLastCalledWith("workspace-write", true));
    fireEvent.click(screen.getByLabelText(/Off: commands can write anywhere/));
    await waitFor(() => expect(set).toHaveBeenLastCalledWith("off", true));
    expect(await screen.findByText(/The sandbox is off/)).toBeTruthy();
  });

  it("says plainly when the system cannot confine commands", async () => {
    const reason = "This system has no Landlock (Linux 5.13 or later with Landlock enabled): commands run unconfined.";
    const backend: SandboxBackend = {
      get: async () => ({ ...confined, available: false, confined: false, reason, writable: [] }),
      set: vi.fn(),
    };
    render(<SandboxSettings backend={backend} />);
    expect(await screen.findByText(reason)).toBeTruthy();
    expect((screen.getByLabelText(/Off: commands/) as HTMLInputElement).disabled).toBe(true);
  });
});

describe("ProcessLeftovers", () => {
  it("lists what a crashed run left and stops it", async () => {
    const left: Leftover = { id: "run-1-2:77", command: "npm run dev", cwd: "/w", startedAt: "", pgid: 77, pids: [77, 78] };
    const stop = vi.fn(async () => [] as Leftover[]);
    const backend: LeftoverBackend = { list: async () => [left], stop };
    render(<ProcessLeftovers backend={backend} />);
    expect(await screen.findByText("Left from the last run")).toBeTruthy();
    expect(screen.getByText("2 processes")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Stop npm run dev" }));
    await waitFor(() => expect(screen.queryByText("Left from the last run")).toBeNull());
    expect(stop).toHaveBeenCalledWith("run-1-2:77");
  });

  it("shows nothing when nothing was left", async () => {
    const list = vi.fn(async () => [] as Leftover[]);
    const { container } = render(<ProcessLeftovers backend={{ list, stop: vi.fn() }} />);
    await waitFor(() => expect(list).toHaveBeenCalled());
    expect(container.textContent).toBe("");
  });
});

describe("confinement in the dialog and the header", () => {
  it("the bash dialog says whether the command runs confined", () => {
    const { rerender } = render(<ApprovalCommand command={{ action: "exec", command: "make", cwd: "/w", confined: true }} />);
    expect(screen.getByText(/^confined — writes only in the workspace/)).toBeTruthy();
    rerender(<ApprovalCommand command={{ action: "start", command: "make", cwd: "/w" }} />);
    expect(screen.getByText("not confined — can write anywhere you can")).toBeTruthy();
    rerender(<ApprovalCommand command={{ action: "stop", processId: "p1" }} />);
    expect(screen.queryByText(/confined/)).toBeNull();
  });

  it("the header shows a badge while commands are not confined", () => {
    const state = { version: "1", workspace: "/w", workspaceName: "w", approvalMode: "safe", needsSetup: false, model: "m", theme: "system" } as AppState;
    const props = { onChooseWorkspace() {}, onModeChange() {}, onOpenSettings: vi.fn() };
    const { rerender } = render(<Header state={state} {...props} />);
    expect(screen.queryByText("Sandbox off")).toBeNull();
    rerender(<Header state={{ ...state, unconfined: "The sandbox is off (Settings).", sandboxOff: true } as AppState} {...props} />);
    fireEvent.click(screen.getByText("Sandbox off"));
    expect(props.onOpenSettings).toHaveBeenCalled();
    rerender(<Header state={{ ...state, unconfined: "No Landlock here." } as AppState} {...props} />);
    expect(screen.getByRole("button", { name: "Commands are not confined: No Landlock here." }).textContent).toBe("Not confined");
  });
});
