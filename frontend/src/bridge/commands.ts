// Trust for the workspace's own slash commands (.gatehouse/commands/*.md):
// the bound Commands* methods.
import type { TrustBackend } from "./agents";
import * as App from "./wailsjs/go/gui/App";
import type { usercmd } from "./wailsjs/go/models";

/** One file of .gatehouse/commands/ as the trust prompt shows it. */
export type PendingCommandFile = usercmd.PendingFile;

export type CommandsTrustBackend = TrustBackend<PendingCommandFile>;

export const commandsTrustBackend: CommandsTrustBackend = {
  pending: async () => (await App.CommandsPending()) ?? null,
  trust: (hash) => App.CommandsTrustWorkspace(hash),
};
