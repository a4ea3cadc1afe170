// Settings in sections: a vertical tab list, drafts kept per section until
// its own Save, and "why" links that open the right section.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ApprovalRequestedPayload } from "../bridge";
import type { SandboxBackend, SandboxView } from "../bridge/sandbox";
import type { McpBackend } from "../bridge/mcp";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";
import { settingsSections } from "./settings/sections";

afterEach(cleanup);

const confined: SandboxView = {
  mode: "workspace-write", available: true, confined: true, denyTCP: false, writable: ["/w"],
  layers: [], denyRead: [], readOnly: [], denyList: [], socketList: [], sockets: "", network: "", signals: "", line: "", networkMode: "", networkAllow: [],
};
const sandboxApi = (): SandboxBackend & { set: ReturnType<typeof vi.fn> } => {
  let saved = confined;
  return { get: async () => saved, set: vi.fn(async (mode: string, denyTCP: boolean) => (saved = { ...saved, mode, denyTCP })) };
};
const approvals = () => ({
  resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}), listRules: vi.fn(async () => []),
  revokeRule: vi.fn(async () => {}),
});
const bash: ApprovalRequestedPayload = {
  approvalId: "b1", callId: "cb", tool: "bash",
  preview: { kind: "command", summary: "bash exec", command: { action: "exec", command: "make", cwd: "/w", confined: true } },
};

const titles = ["Model", "Context", "Budgets", "Sandbox", "Network", "Permissions", "Servers", "Agents and commands", "Skills", "Hooks", "Language servers", "Trusted folders", "Git", "Appearance"];

describe("Settings in sections", () => {
  it("lists the sections in a vertical tab list; each states when its changes apply", async () => {
    const b = fakeBackend();
    render(<App backend={b} sandbox={sandboxApi()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    const list = screen.getByRole("tablist", { name: "Settings sections" });
    expect(list.getAttribute("aria-orientation")).toBe("vertical");
    expect(within(list).getAllByRole("tab").map((t) => t.textContent)).toEqual(titles);
    for (const s of settingsSections) {
      fireEvent.click(screen.getByRole("tab", { name: s.title }));
      const panel = screen.getByRole("tabpanel", { name: s.title });
      expect(within(panel).getByRole("heading", { level: 2 }).textContent).toBe(s.title);
      expect(panel.querySelector(".settings-applies")!.textContent).toMatch(/^(Changes apply when you press Save: .+|Nothing to change here yet\.|Nothing here waits for Save: .+)$/);
      expect(screen.getAllByRole("tabpanel")).toHaveLength(1); // the others are hidden
    }
  }, 20_000); // eleven sections drawn in turn: past 5 s on a busy machine

  it("moves between sections with the arrow keys, Home and End; focus follows", async () => {
    render(<App backend={fakeBackend()} sandbox={sandboxApi()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    const tab = (name: string) => screen.getByRole("tab", { name });
    await waitFor(() => expect(document.activeElement).toBe(tab("Model")));
    expect(tab("Model").tabIndex).toBe(0);
    expect(tab("Context").tabIndex).toBe(-1);
    fireEvent.keyDown(tab("Model"), { key: "ArrowDown" });
    expect(document.activeElement).toBe(tab("Context"));
    expect(tab("Context").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tabpanel", { name: "Context" })).toBeTruthy();
    fireEvent.keyDown(tab("Context"), { key: "End" });
    expect(document.activeElement).toBe(tab("Appearance"));
    fireEvent.keyDown(tab("Appearance"), { key: "ArrowDown" });
    expect(document.activeElement).toBe(tab("Model"));
    fireEvent.keyDown(tab("Model"), { key: "ArrowUp" });
    expect(document.activeElement).toBe(tab("Appearance"));
    fireEvent.keyDown(tab("Appearance"), { key: "Home" });
    expect(document.activeElement).toBe(tab("Model"));
  });

  it("keeps each section's draft across switches, marks it unsaved, and applies nothing before its Save", async () => {
    const b = fakeBackend();
    const sandbox = sandboxApi();
    render(<App backend={b} sandbox={sandbox} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    const model = (await screen.findByRole("textbox", { name: "Model" })) as HTMLInputElement;
    await waitFor(() => expect(model.value).toBe("fake-model"));
    fireEvent.input(model, { target: { value: "other-model" } });
    fireEvent.click(screen.getByRole("tab", { name: "Sandbox" }));
    fireEvent.click(await screen.findByLabelText(/Off: commands can write anywhere/));
    expect(screen.getByRole("tab", { name: /^Model\s*\(unsaved changes\)$/ })).toBeTruthy();
    expect(screen.getByRole("tab", { name: /^Sandbox\s*\(unsaved changes\)$/ })).toBeTruthy();
    expect(b.saveSettings).not.toHaveBeenCalled();
    expect(sandbox.set).not.toHaveBeenCalled();

    fireEvent.click(within(screen.getByRole("tabpanel", { name: /Sandbox/ })).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sandbox.set).toHaveBeenCalledWith("off", false));
    await waitFor(() => expect(screen.getByRole("tab", { name: "Sandbox" })).toBeTruthy());
    expect(b.saveSettings).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("tab", { name: /Model/ }));
    expect((screen.getByRole("textbox", { name: "Model" }) as HTMLInputElement).value).toBe("other-model");
    fireEvent.click(within(screen.getByRole("tabpanel", { name: /Model/ })).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ model: "other-model" })));
    await waitFor(() => expect(screen.getByRole("button", { name: "Model other-model" })).toBeTruthy());
  });

  it("asks before Close throws away unsaved changes", async () => {
    render(<App backend={fakeBackend()} sandbox={sandboxApi()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    fireEvent.click(screen.getByRole("tab", { name: "Network" }));
    fireEvent.click(await screen.findByLabelText(/refuse network connections/i));
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(confirm).toHaveBeenCalledWith("Discard the unsaved changes in Network?");
    expect(screen.getByRole("heading", { name: "Settings" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(await screen.findByRole("textbox", { name: "Message" })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Settings" })); // focus goes back to the opener
    confirm.mockRestore();
  });

  it("the bash dialog's Sandbox line opens Settings at Sandbox; the dialog waits and comes back", async () => {
    const b = fakeBackend({}, { sessionId: "s1", pendingApprovals: [bash], lastSeq: 5 });
    render(<App backend={b} approvals={approvals()} sandbox={sandboxApi()} />);
    const dialog = await screen.findByRole("dialog", { name: /^bash/ });
    fireEvent.click(within(dialog).getByRole("button", { name: "Sandbox settings" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    const tab = screen.getByRole("tab", { name: "Sandbox" });
    expect(tab.getAttribute("aria-selected")).toBe("true");
    await waitFor(() => expect(document.activeElement).toBe(tab));
    expect(await screen.findByLabelText(/Confined: commands write only/)).toBeTruthy();
    expect(screen.getByText(/bash is waiting for your answer/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Back to the request" }));
    const back = await screen.findByRole("dialog", { name: /^bash/ });
    await waitFor(() => expect(back.contains(document.activeElement)).toBe(true)); // the dialog takes focus again
  });

  it("Servers leads to the Servers panel beside the chat", async () => {
    const mcp = {
      list: vi.fn(async () => ({ claudeImport: false, servers: [] })), subscribe: () => () => {},
    } as unknown as McpBackend;
    render(<App backend={fakeBackend()} mcp={mcp} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    fireEvent.click(screen.getByRole("tab", { name: "Servers" }));
    fireEvent.click(screen.getByRole("button", { name: "Show the Servers panel" }));
    const panel = await screen.findByRole("complementary", { name: "Servers" });
    expect(within(panel).getByRole("button", { name: /^Servers/ }).getAttribute("aria-expanded")).toBe("true");
    expect(await within(panel).findByText(/No MCP servers yet/)).toBeTruthy();
  });

  it("the header's sandbox badge opens Settings at Sandbox", async () => {
    render(<App backend={fakeBackend({ unconfined: "The sandbox is off (Settings).", sandboxOff: true })} sandbox={sandboxApi()} />);
    fireEvent.click(await screen.findByRole("button", { name: /^Commands are not confined/ }));
    expect(screen.getByRole("tab", { name: "Sandbox" }).getAttribute("aria-selected")).toBe("true");
  });
});
