// The MCP servers panel's side of the bridge: the bound Mcp* methods and the
// mcp.updated events. Components get an McpBackend, so unit tests pass a
// fake one.
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import { EventsOn } from "./wailsjs/runtime/runtime";
import {
  WAILS_EVENT_NAME,
  type GatehouseEvent,
  type McpPanel,
  type McpServerForm,
  type McpUpdatedPayload,
  type ServerConfig,
} from "./protocol.gen";



/** One entry of mcpServers, as in Claude Desktop's and Cursor's files, plus Gatehouse's keys. */
export type McpServerConfig = ServerConfig;
/** The panel's list, and whether Claude Desktop's config exists to import from. */
export type McpPanelState = McpPanel;

export interface McpBackend {
  list(): Promise<McpPanelState>;
  restart(name: string): Promise<void>;
  setDisabled(name: string, disabled: boolean): Promise<void>;
  setToolEnabled(name: string, tool: string, on: boolean): Promise<void>;
  /** Starts a browser server with the app's filtering proxy (its pages held to the allow-list), or without it. */
  setAppProxy(name: string, on: boolean): Promise<void>;
  /** A server's configuration with secrets masked; editable when it is in the user's list. */
  config(name: string): Promise<McpServerForm>;
  /** Adds (oldName "") or replaces a server of the user's list; masked values keep their secrets. */
  put(oldName: string, name: string, config: McpServerConfig): Promise<void>;
  remove(name: string): Promise<void>;
  /** The user's list as JSON, secrets masked. */
  raw(): Promise<string>;
  saveRaw(text: string): Promise<void>;
  /** Trusts the workspace's .gatehouse/mcp.json as shown and starts its servers. */
  trust(): Promise<void>;
  importClaude(): Promise<string[]>;
  /** Calls on with every mcp.updated; returns the unsubscribe. */
  subscribe(on: (p: McpUpdatedPayload) => void): () => void;
}

export const mcpBackend: McpBackend = {
  list: () => afterFirstFrame(App.McpList),
  restart: (name) => App.McpRestart(name),
  setDisabled: (name, disabled) => App.McpSetDisabled(name, disabled),
  setToolEnabled: (name, tool, on) => App.McpSetToolEnabled(name, tool, on),
  setAppProxy: (name, on) => App.McpSetAppProxy(name, on),
  config: (name) => App.McpServerConfig(name),
  put: (oldName, name, config) => App.McpPutServer(oldName, name, config),
  remove: (name) => App.McpRemoveServer(name),
  raw: () => App.McpRawConfig(),
  saveRaw: (text) => App.McpSaveRawConfig(text),
  trust: () => App.McpTrustWorkspace(),
  importClaude: async () => (await App.McpImportClaude()) ?? [],
  subscribe: (on) =>
    EventsOn(WAILS_EVENT_NAME, (e: GatehouseEvent) => {
      if (e.type === "mcp.updated") on(e.payload);
    }),
};
