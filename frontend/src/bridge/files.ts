// The file tree's and viewer's link to the backend: workspace listing, file
// views, diffs against the content before the session, and the live fs.changed
// / watch.degraded events. Components get a FilesBackend as a prop, so unit
// tests pass a fake.
import * as App from "./wailsjs/go/gui/App";
import { EventsOn } from "./wailsjs/runtime/runtime";
import { WAILS_EVENT_NAME, type FsChangedPayload, type GatehouseEvent } from "./protocol.gen";

export interface DirEntry {
  name: string;
  /** Workspace-relative, slash separated. */
  path: string;
  isDir: boolean;
  size: number;
  /** Ignored by .gitignore or the built-in list: shown dimmed, not watched. */
  ignored: boolean;
}

export type ChangeStatus = "added" | "modified" | "deleted";
export type ChangeOrigin = "agent" | "shell" | "outside";

export interface ChangedFile {
  path: string;
  status: ChangeStatus;
  badge: "A" | "M" | "D";
  /** Who changed it last; origins lists everyone who did. */
  origin: ChangeOrigin;
  origins: ChangeOrigin[];
  baselineKnown: boolean;
}

export interface FileView {
  path: string;
  content: string;
  size: number;
  binary: boolean;
  truncated: boolean;
}

export interface FileDiffView {
  change: ChangedFile;
  diff: string;
  note?: string;
}

export interface WatchStatus {
  watching: boolean;
  degraded: boolean;
  reason?: string;
}

export interface FilesBackend {
  listDir(path: string): Promise<DirEntry[]>;
  readFile(path: string): Promise<FileView>;
  /** A workspace image (PNG, JPEG, WEBP, GIF; at most 20 MB) as a data URL; optional for fakes. */
  image?(path: string): Promise<string>;
  fileDiff(path: string): Promise<FileDiffView>;
  changedFiles(): Promise<ChangedFile[]>;
  watchState(): Promise<WatchStatus>;
  /** Calls cb with each fs.changed payload; returns the unsubscribe. */
  onFsChanged(cb: (p: FsChangedPayload) => void): () => void;
  /** Calls cb with the reason of each watch.degraded event. */
  onWatchDegraded(cb: (reason: string) => void): () => void;
}

function onEvent<T extends GatehouseEvent["type"]>(type: T, cb: (e: Extract<GatehouseEvent, { type: T }>) => void): () => void {
  return EventsOn(WAILS_EVENT_NAME, (e: GatehouseEvent) => {
    if (e && e.type === type) cb(e as Extract<GatehouseEvent, { type: T }>);
  });
}

export const filesBackend: FilesBackend = {
  listDir: async (path) => ((await App.ListDir(path)) ?? []) as DirEntry[],
  readFile: async (path) => (await App.ReadFileForView(path)) as FileView,
  image: (path) => App.WorkspaceImage(path),
  fileDiff: async (path) => (await App.FileDiff(path)) as unknown as FileDiffView,
  changedFiles: async () => ((await App.ChangedFiles()) ?? []) as ChangedFile[],
  watchState: async () => (await App.WatchState()) as WatchStatus,
  onFsChanged: (cb) => onEvent("fs.changed", (e) => cb(e.payload)),
  onWatchDegraded: (cb) => onEvent("watch.degraded", (e) => cb(e.payload.reason)),
};
