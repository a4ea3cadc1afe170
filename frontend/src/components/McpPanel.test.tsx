import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { McpUpdatedPayload } from "../bridge";
import type { McpBackend, McpPanelState } from "../bridge/mcp";
import { McpPanel } from "./McpPanel";
import { parsePairs } from "./McpServerForm";

afterEach(cleanup);

const ready: McpPanelState = {
  claudeImport: true,
  servers: [
    { name: "everything", source: "/c/mcp.json", state: "ready", target: "npx -y @modelcontextprotocol/server-everything",
      tools: [{ name: "echo", surfaceName: "mcp__everything__echo", enabled: true }, { name: "get-env", surfaceName: "mcp__everything__get-env", readOnlyHint: true, enabled: false }] },
    { name: "broken", source: "/c/mcp.json", state: "failed", target: "broken-server", error: "the server closed the connection", stderr: "fatal: no token" },
  ],
};

function fake(initial: McpPanelState) {
  let on: (p: McpUpdatedPayload) => void = () => {};
  const b: McpBackend & { push: (p: McpUpdatedPayload) => void } = {
    list: vi.fn(async () => initial),
    restart: vi.fn(async () => {}),
    setDisabled: vi.fn(async () => {}),
    setToolEnabled: vi.fn(async () => {}),
    setAppProxy: vi.fn(async () => {}),
    config: vi.fn(async () => ({ config: { command: "npx", args: ["-y", "x"], env: { TOKEN: "••••••" } }, editable: true })),
    put: vi.fn(async () => {}),
    remove: vi.fn(async () => {}),
    raw: vi.fn(async () => '{"mcpServers": {}}'),
    saveRaw: vi.fn(async () => {}),
    trust: vi.fn(async () => {}),
    importClaude: vi.fn(async () => ["github"]),
    subscribe: (f) => ((on = f), () => {}),
    push: (p) => on(p),
  };
  return b;
}

describe("McpPanel", () => {
  it("says a user's server runs outside the sandbox and offers a browser server the app's proxy in allow-list mode", async () => {
    const browser = { name: "browser", source: "/c/mcp.json", state: "ready" as const, target: "npx @playwright/mcp", unconfined: true, browser: true };
    const tool = { name: "tool", source: "/c/mcp.json", state: "ready" as const, target: "my-server", unconfined: true };
    const confined = { name: "ws", source: ".gatehouse/mcp.json", state: "ready" as const, target: "ws-server" };
    const b = fake({ claudeImport: false, allowList: true, servers: [browser, tool, confined] });
    render(<McpPanel backend={b} />);
    const reach = await screen.findByRole("note", { name: "browser reach" });
    expect(reach.textContent).toContain("outside the sandbox");
    expect(reach.textContent).toContain("the network allow-list does not apply to it");
    fireEvent.click(within(reach).getByRole("button", { name: "Start with the app's proxy" }));
    expect(b.setAppProxy).toHaveBeenCalledWith("browser", true);
    const other = screen.getByRole("note", { name: "tool reach" });
    expect(other.textContent).toContain("outside the sandbox");
    expect(within(other).queryByRole("button")).toBeNull();
    expect(screen.queryByRole("note", { name: "ws reach" })).toBeNull();
    // Started with the proxy: it says so and offers to go back.
    act(() => b.push({ allowList: true, servers: [{ ...browser, appProxy: true }] }));
    const now = screen.getByRole("note", { name: "browser reach" });
    expect(now.textContent).toContain("the network allow-list holds them");
    fireEvent.click(within(now).getByRole("button", { name: "Start without the proxy" }));
    expect(b.setAppProxy).toHaveBeenCalledWith("browser", false);
    // Not in allow-list mode: nothing to offer.
    act(() => b.push({ servers: [browser] }));
    expect(within(screen.getByRole("note", { name: "browser reach" })).queryByRole("button")).toBeNull();
  });


  it("shows each server's state, a failed one's stderr, and switches tools", async () => {
    const b = fake(ready);
    render(<McpPanel backend={b} />);
    expect((await screen.findByRole("status", { name: "everything state" })).textContent).toBe("ready · 2 tools");
    const broken = screen.getByRole("listitem", { name: "MCP server broken" });
    expect(within(broken).getByText("failed")).toBeTruthy();
    expect(within(broken).getByLabelText("broken stderr").textContent).toBe("fatal: no token");
    const env = screen.getByRole("checkbox", { name: "Offer get-env to the model" }) as HTMLInputElement;
    expect(env.checked).toBe(false);
    fireEvent.click(env);
    expect(b.setToolEnabled).toHaveBeenCalledWith("everything", "get-env", true);
    fireEvent.click(within(broken).getByRole("button", { name: "Restart" }));
    expect(b.restart).toHaveBeenCalledWith("broken");
    fireEvent.click(within(broken).getByRole("button", { name: "Disable" }));
    expect(b.setDisabled).toHaveBeenCalledWith("broken", true);
    vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(within(broken).getByRole("button", { name: "Remove" }));
    expect(b.remove).toHaveBeenCalledWith("broken");
    // An mcp.updated event replaces the list.
    act(() => b.push({ servers: [{ name: "broken", source: "", state: "starting", target: "x" }] }));
    expect(screen.getByRole("status", { name: "broken state" }).textContent).toBe("starting…");
    expect(screen.queryByRole("listitem", { name: "MCP server everything" })).toBeNull();
  });

  it("asks before a workspace's servers start", async () => {
    const b = fake({ claudeImport: false, servers: [], untrusted: { file: ".gatehouse/mcp.json", lines: ["db runs ./db-server --token ••••••"] } });
    render(<McpPanel backend={b} />);
    const ask = await screen.findByRole("alert", { name: "Workspace servers waiting for trust" });
    expect(ask.textContent).toContain("db runs ./db-server --token ••••••");
    fireEvent.click(within(ask).getByRole("button", { name: "Trust and start" }));
    expect(b.trust).toHaveBeenCalled();
  });

  it("shows a workspace server's env values but secrets', flags code loaders and read-only hints", async () => {
    const b = fake({ claudeImport: false, servers: [], untrusted: { file: ".gatehouse/mcp.json", lines: [], servers: [
      { name: "db", line: "runs node srv.js", trustReadOnlyHints: true, env: [
        { name: "API_TOKEN", value: "••••••", secret: true },
        { name: "NODE_OPTIONS", value: "--require ./x.js", loadsCode: true },
        { name: "PORT", value: "5432" },
      ] },
    ] } });
    render(<McpPanel backend={b} />);
    const db = await screen.findByLabelText("Server db");
    expect(db.textContent).toContain("db runs node srv.js");
    expect(db.textContent).toContain("NODE_OPTIONS=--require ./x.js ⚠ makes the server load code it names");
    expect(db.textContent).toContain("PORT=5432");
    expect(db.textContent).toContain("API_TOKEN=•••••• (a secret: not shown)");
    expect(db.textContent).toContain("trusts its read-only hints");
  });

  it("adds a server from the form, edits the raw JSON, and imports from Claude Desktop", async () => {
    const b = fake(ready);
    render(<McpPanel backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Add server" }));
    const form = screen.getByRole("form", { name: "Add a server" });
    fireEvent.input(within(form).getByLabelText("Name"), { target: { value: "fs" } });
    fireEvent.input(within(form).getByLabelText("Command"), { target: { value: "npx" } });
    fireEvent.input(within(form).getByLabelText("Arguments, one per line"), { target: { value: "-y\n@modelcontextprotocol/server-filesystem\n." } });
    fireEvent.input(within(form).getByLabelText("Environment, NAME=value per line"), { target: { value: "DEBUG=1" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.put).toHaveBeenCalledWith("", "fs", expect.objectContaining({
      command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "1" },
    })));
    await waitFor(() => expect(screen.queryByRole("form", { name: "Add a server" })).toBeNull());

    fireEvent.click(screen.getByRole("button", { name: "Edit as JSON" }));
    const text = await screen.findByRole("textbox", { name: "mcpServers JSON" });
    fireEvent.input(text, { target: { value: '{"mcpServers": {"a": {"command": "x"}}}' } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveRaw).toHaveBeenCalledWith('{"mcpServers": {"a": {"command": "x"}}}'));

    fireEvent.click(await screen.findByRole("button", { name: "Import from Claude Desktop" }));
    expect((await screen.findByText("Imported github from Claude Desktop."))).toBeTruthy();
  });

  it("parses env and header lines, and says which line is wrong", () => {
    expect(parsePairs("A=1\n\nB = two=2", "=")).toEqual({ A: "1", B: "two=2" });
    expect(parsePairs("Authorization: Bearer x", ":")).toEqual({ Authorization: "Bearer x" });
    expect(parsePairs("ok=1\nnope", "=")).toBe("line 2: expected NAME=value");
  });
});
