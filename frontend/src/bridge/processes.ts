// The process panel's side of the bridge: the bound process methods, the
// event stream, and the few runtime calls the panel needs (open a URL in the
// system browser, the clipboard). Components get a ProcessBackend, so unit
// tests pass a fake one.
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import { BrowserOpenURL, ClipboardSetText, EventsOn } from "./wailsjs/runtime/runtime";
import { WAILS_EVENT_NAME, type GatehouseEvent, type ProcessInfo, type ProcessLogs } from "./protocol.gen";

export type { GatehouseEvent, ProcessInfo };

/** A page of a process's output: bytes [offset, nextOffset) as text. */
export type LogPage = ProcessLogs;

export interface ProcessBackend {
  /** The open session's processes. */
  list(): Promise<ProcessInfo[]>;
  /** Output from offset (negative: the last -offset bytes), at most limit bytes. */
  logs(id: string, offset: number, limit: number): Promise<LogPage>;
  /** Types input into the process's terminal ("\r" is Enter, "\x03" Ctrl+C). */
  write(id: string, input: string): Promise<void>;
  resize(id: string, rows: number, cols: number): Promise<void>;
  stop(id: string): Promise<ProcessInfo>;
  /** Starts an ended process's command again in its folder; returns the new process. */
  restart(id: string): Promise<ProcessInfo>;
  /** Opens url in the system browser. */
  openURL(url: string): void;
  copyText(text: string): Promise<void>;
  /** Tells the backend whether the window has the focus (for notifications). */
  setWindowFocused(focused: boolean): Promise<void>;
  /** Calls on with every backend event; returns the unsubscribe function. */
  subscribe(on: (e: GatehouseEvent) => void): () => void;
}

export const processBackend: ProcessBackend = {
  list: async () => (await afterFirstFrame(App.Processes)) ?? [],
  logs: (id, offset, limit) => App.ProcessLogs(id, offset, limit),
  write: (id, input) => App.ProcessWrite(id, input),
  resize: (id, rows, cols) => App.ProcessResize(id, rows, cols),
  stop: (id) => App.ProcessStop(id),
  restart: (id) => App.ProcessRestart(id),
  openURL: (url) => BrowserOpenURL(url),
  copyText: async (text) => {
    let ok = false;
    try {
      ok = await ClipboardSetText(text);
    } catch {
      ok = false;
    }
    if (!ok) await navigator.clipboard.writeText(text);
  },
  setWindowFocused: (focused) => App.SetWindowFocused(focused),
  subscribe: (on) => EventsOn(WAILS_EVENT_NAME, (e: GatehouseEvent) => on(e)),
};
