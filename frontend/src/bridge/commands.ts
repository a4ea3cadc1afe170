// Trust for the workspace's own slash commands (.gatehouse/commands/*.md):
// the bound Commands* methods.
import type { TrustBackend } from "./agents";
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import type { UsercmdPendingFile } from "./protocol.gen";

/** One file of .gatehouse/commands/ as the trust prompt shows it. */
export type PendingCommandFile = UsercmdPendingFile;

export type CommandsTrustBackend = TrustBackend<PendingCommandFile>;

export const commandsTrustBackend: CommandsTrustBackend = {
  pending: () => afterFirstFrame(App.CommandsPending),
  trust: (hash) => App.CommandsTrustWorkspace(hash),
};
