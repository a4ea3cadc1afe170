// The file tree's and viewer's link to the backend: workspace listing, file
// views, diffs against the content before the session, and the live fs.changed
// / watch.degraded events. Components get a FilesBackend as a prop, so unit
// tests pass a fake.
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import { EventsOn } from "./wailsjs/runtime/runtime";
import {
  WAILS_EVENT_NAME,
  type ChangedFile,
  type DirEntry,
  type FileDiffView,
  type FileView,
  type FsChangedPayload,
  type GatehouseEvent,
  type WatchStatus,
} from "./protocol.gen";

export type { ChangedFile, DirEntry, FileDiffView, FileView, WatchStatus };
export type ChangeStatus = "added" | "modified" | "deleted";
export type ChangeOrigin = "agent" | "shell" | "outside";

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
  listDir: async (path) => (await App.ListDir(path)) ?? [],
  readFile: (path) => App.ReadFileForView(path),
  image: (path) => App.WorkspaceImage(path),
  fileDiff: (path) => App.FileDiff(path),
  changedFiles: async () => (await afterFirstFrame(App.ChangedFiles)) ?? [],
  watchState: () => afterFirstFrame(App.WatchState),
  onFsChanged: (cb) => onEvent("fs.changed", (e) => cb(e.payload)),
  onWatchDegraded: (cb) => onEvent("watch.degraded", (e) => cb(e.payload.reason)),
};
