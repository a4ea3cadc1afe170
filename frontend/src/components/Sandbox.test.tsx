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
    fireEvent.click(screen.getByLabelText(/Network off for commands/));
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

  it("shows the active layers and saves the deny-read list and the sockets", async () => {
    const view: SandboxView = { ...confined, layers: ["namespaces (bubblewrap: user, mount, PID, IPC)", "Landlock ABI 7", "seccomp"],
      denyList: ["~/.ssh", "~/.aws"], socketList: [], signals: "its own processes only", network: "on", sockets: "no Unix sockets" };
    const setLists = vi.fn(async (d: string[], s: string[]): Promise<SandboxView> => ({ ...view, denyList: d, socketList: s }));
    render(<SandboxSettings backend={{ get: async () => view, set: vi.fn(), setLists }} />);
    expect(await screen.findByText(/Active layers: namespaces .*Landlock ABI 7, seccomp/)).toBeTruthy();
    const deny = screen.getByLabelText(/Commands cannot read/) as HTMLTextAreaElement;
    expect(deny.value).toBe("~/.ssh\n~/.aws");
    fireEvent.input(deny, { target: { value: "~/.ssh\n\n~/.secret" } });
    fireEvent.input(screen.getByLabelText(/Unix sockets commands may reach/), { target: { value: "$SSH_AUTH_SOCK" } });
    fireEvent.click(screen.getByRole("button", { name: "Save sandbox lists" }));
    await waitFor(() => expect(setLists).toHaveBeenCalledWith(["~/.ssh", "~/.secret"], ["$SSH_AUTH_SOCK"]));
  });

  it("says what Landlock alone misses", async () => {
    const missing = "No namespaces here: Landlock and seccomp alone.";
    render(<SandboxSettings backend={{ get: async () => ({ ...confined, landlockOnly: true, missing, layers: ["Landlock ABI 7"] }), set: vi.fn() }} />);
    expect(await screen.findByText(missing)).toBeTruthy();
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
    rerender(<ApprovalCommand command={{ action: "exec", command: "make", cwd: "/w", confined: true, sandbox: "confined by Landlock ABI 7. Reads: all but ~/.ssh." }} />);
    expect(screen.getByText(/Reads: all but ~\/\.ssh/)).toBeTruthy();
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
