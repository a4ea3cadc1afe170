// The tab bar's side of the bridge: the sessions open at once, each in its
// own tab, and showing, opening and closing them. A tab not shown goes on:
// its turn, processes and approvals are untouched by a switch.
import { App } from "./bound.gen";
import type { Snapshot, TabInfo } from "./protocol.gen";

/** One open session (Go: gui.TabInfo). */
export type { TabInfo };

export interface TabsBackend {
  /** The open sessions, in the order they were opened. */
  list(): Promise<TabInfo[]>;
  /** Opens a new session on the shown folder beside the others, and shows it. */
  create(): Promise<Snapshot>;
  /** Shows the session id; the one shown before goes on in the background. */
  show(id: string): Promise<Snapshot>;
  /** Closes the session id (its turn is cancelled, its processes stopped). */
  close(id: string): Promise<void>;
}

export const tabsBackend: TabsBackend = {
  list: async () => (await App.Tabs()) ?? [],
  create: () => App.NewTab(),
  show: (id) => App.SwitchTab(id),
  close: (id) => App.CloseTab(id),
};
