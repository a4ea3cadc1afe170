import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Leftover, LeftoverBackend, SandboxBackend, SandboxView } from "../bridge/sandbox";
import type { AppState } from "../bridge";
import { SandboxSettings } from "./SandboxSettings";
import { ProcessLeftovers } from "./ProcessLeftovers";
import { ApprovalCommand } from "./ApprovalCommand";
import { Header } from "./Header";
import { NetworkSection } from "./settings/NetworkSection";
import { fakeBackend } from "../test/fakeBackend";

afterEach(cleanup);

const confined: SandboxView = {
  mode: "workspace-write", available: true, confined: true, denyTCP: false,
  layers: [], denyRead: [], readOnly: [], denyList: [], socketList: [], sockets: "", network: "", signals: "", line: "", networkMode: "", networkAllow: [],
  writable: ["/home/u/project", "/tmp", "/home/u/.npm"],
};

/** A section's props around a sandbox backend, with spies. */
const sectionProps = (sandbox: SandboxBackend) => ({
  deps: { backend: fakeBackend(), sandbox }, setDirty: vi.fn(), onSaved: vi.fn(), goTo: vi.fn(),
});

describe("SandboxSettings", () => {
  it("shows where confined commands write; a new mode is a draft until Save, which keeps the TCP choice", async () => {
    let saved = { ...confined, denyTCP: true };
    const set = vi.fn(async (mode: string, denyTCP: boolean): Promise<SandboxView> =>
      (saved = mode === "off"
        ? { ...confined, mode, denyTCP, confined: false, reason: "The sandbox is off (Settings): commands can write anywhere you can." }
        : { ...confined, mode, denyTCP }));
    const props = sectionProps({ get: async () => saved, set });
    render(<SandboxSettings {...props} />);
    expect(await screen.findByText("Commands run confined.")).toBeTruthy();
    expect(screen.getByText("/home/u/.npm")).toBeTruthy();
    const save = screen.getByRole("button", { name: "Save" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText(/Off: commands can write anywhere/));
    expect(props.setDirty).toHaveBeenLastCalledWith(true);
    expect(set).not.toHaveBeenCalled();
    expect(screen.getByText("Unsaved changes")).toBeTruthy();
    fireEvent.click(save);
    await waitFor(() => expect(set).toHaveBeenCalledWith("off", true));
    expect(await screen.findByText(/The sandbox is off/)).toBeTruthy();
    expect(screen.getByText("✓ Saved.")).toBeTruthy();
    expect(props.onSaved).toHaveBeenCalledTimes(1);
    expect(props.setDirty).toHaveBeenLastCalledWith(false);
    fireEvent.click(screen.getByRole("button", { name: "Network" }));
    expect(props.goTo).toHaveBeenCalledWith("network");
  });

  it("says plainly when the system cannot confine commands", async () => {
    const reason = "This system has no Landlock (Linux 5.13 or later with Landlock enabled): commands run unconfined.";
    const props = sectionProps({ get: async () => ({ ...confined, available: false, confined: false, reason, writable: [] }), set: vi.fn() });
    render(<SandboxSettings {...props} />);
    expect(await screen.findByText(reason)).toBeTruthy();
    expect((screen.getByLabelText(/Off: commands/) as HTMLInputElement).disabled).toBe(true);
  });
});

describe("NetworkSection", () => {
  it("turns the network off from its own Save, keeping the sandbox's mode as saved (a backend without allow-lists)", async () => {
    let saved: SandboxView = confined;
    const set = vi.fn(async (mode: string, denyTCP: boolean) => (saved = { ...saved, mode, denyTCP }));
    const props = sectionProps({ get: async () => saved, set });
    render(<NetworkSection {...props} />);
    const box = (await screen.findByLabelText(/refuse network connections/i)) as HTMLInputElement;
    expect(screen.getByText(/TCP, MPTCP and UDP \(DNS included\)/)).toBeTruthy();
    expect(screen.queryByLabelText(/Allow-list/)).toBeNull();
    fireEvent.click(box);
    expect(set).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(set).toHaveBeenCalledWith("workspace-write", true));
    cleanup();
    saved = { ...saved, mode: "off", confined: false };
    render(<NetworkSection {...sectionProps({ get: async () => saved, set })} />);
    expect(((await screen.findByLabelText(/refuse network connections/i)) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/Commands are not confined, so they reach the network as you do; this setting holds for web_fetch only/)).toBeTruthy();
  });

  it("saves an allow-list of domains, and shows the backend's refusal of a bad one without losing the draft", async () => {
    let saved: SandboxView = { ...confined, networkMode: "on", networkAllow: [] };
    const setNetwork = vi.fn(async (mode: string, allow: string[]) => {
      if (allow.some((d) => d.includes("/"))) throw new Error(`"${allow.find((d) => d.includes("/"))}" is not a domain`);
      return (saved = { ...saved, networkMode: mode, networkAllow: allow });
    });
    render(<NetworkSection {...sectionProps({ get: async () => saved, set: vi.fn(), setNetwork })} />);
    const list = (await screen.findByRole("textbox", { name: /Allowed domains/ })) as HTMLTextAreaElement;
    expect(list.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText(/Allow-list/));
    expect(list.disabled).toBe(false);
    fireEvent.input(list, { target: { value: "registry.npmjs.org\n\n *.github.com\nhttps://x.test/a" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(/"https:\/\/x.test\/a" is not a domain/)).toBeTruthy();
    expect(list.value).toContain("https://x.test/a");
    fireEvent.input(list, { target: { value: "registry.npmjs.org\n\n *.github.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(setNetwork).toHaveBeenLastCalledWith("allow-list", ["registry.npmjs.org", "*.github.com"]));
    expect(await screen.findByText("✓ Saved.")).toBeTruthy();
    expect(list.value).toBe("registry.npmjs.org\n*.github.com");
  });
});

describe("SandboxSettings layers and lists", () => {
  it("shows the active layers and saves the deny-read list and the sockets with Save", async () => {
    const view: SandboxView = { ...confined, layers: ["namespaces (bubblewrap: user, mount, PID, IPC)", "Landlock ABI 7", "seccomp"],
      denyList: ["~/.ssh", "~/.aws"], socketList: [], signals: "its own processes only", network: "on", sockets: "no Unix sockets" };
    const setLists = vi.fn(async (d: string[], s: string[]): Promise<SandboxView> => ({ ...view, denyList: d, socketList: s }));
    const set = vi.fn(async (): Promise<SandboxView> => view);
    render(<SandboxSettings {...sectionProps({ get: async () => view, set, setLists })} />);
    expect(await screen.findByText(/Active layers: namespaces .*Landlock ABI 7, seccomp/)).toBeTruthy();
    const deny = screen.getByLabelText(/Commands cannot read/) as HTMLTextAreaElement;
    expect(deny.value).toBe("~/.ssh\n~/.aws");
    fireEvent.input(deny, { target: { value: "~/.ssh\n\n~/.secret" } });
    fireEvent.input(screen.getByLabelText(/Unix sockets commands may reach/), { target: { value: "$SSH_AUTH_SOCK" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(setLists).toHaveBeenCalledWith(["~/.ssh", "~/.secret"], ["$SSH_AUTH_SOCK"]));
  });

  it("says what Landlock alone misses", async () => {
    const missing = "No namespaces here: Landlock and seccomp alone.";
    render(<SandboxSettings {...sectionProps({ get: async () => ({ ...confined, landlockOnly: true, missing, layers: ["Landlock ABI 7"] }), set: vi.fn() })} />);
    expect(await screen.findByText(missing)).toBeTruthy();
  });

  it("says plainly when the policy's read denies are not hidden from commands", async () => {
    const policyReads = "Your policy's read denies (.env) are NOT hidden from commands here: Landlock alone cannot hide a path inside the workspace it grants whole.";
    render(<SandboxSettings {...sectionProps({ get: async () => ({ ...confined, landlockOnly: true, policyReads, layers: ["Landlock ABI 7"] }), set: vi.fn() })} />);
    expect(await screen.findByText(policyReads)).toBeTruthy();
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
    expect(screen.queryByRole("button", { name: "Sandbox settings" })).toBeNull();
    expect(screen.queryByText(/confined/)).toBeNull();
  });

  it("the header shows a badge while commands are not confined", () => {
    const state = { version: "1", workspace: "/w", workspaceName: "w", approvalMode: "safe", needsSetup: false, model: "m", theme: "system" } as AppState;
    const props = { onChooseWorkspace() {}, onModeChange() {}, onOpenSettings: vi.fn() };
    const { rerender } = render(<Header state={state} {...props} />);
    expect(screen.queryByText("Sandbox off")).toBeNull();
    rerender(<Header state={{ ...state, unconfined: "The sandbox is off (Settings).", sandboxOff: true } as AppState} {...props} />);
    fireEvent.click(screen.getByText("Sandbox off"));
    expect(props.onOpenSettings).toHaveBeenCalledWith("sandbox");
    rerender(<Header state={{ ...state, unconfined: "No Landlock here." } as AppState} {...props} />);
    expect(screen.getByRole("button", { name: "Commands are not confined: No Landlock here." }).textContent).toBe("Not confined");
  });
});
