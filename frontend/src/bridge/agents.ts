// Trust for the workspace's agent definitions (.gatehouse/agents/*.md):
// the bound Agents* methods. Components get an AgentsTrustBackend, so unit
// tests pass a fake one.
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import type { FolderTrust, Pending, PendingFile } from "./protocol.gen";



/** One file of .gatehouse/agents/ as the trust prompt shows it. */
export type PendingAgentFile = PendingFile;
/** The workspace's definitions waiting for trust; hash names exactly the content shown. */
export type PendingAgents = Pending;
/** A folder the user trusts, and what it trusts: "mcp" (its servers), "agents" (its agent definitions). */
export type TrustedFolder = FolderTrust;

export interface AgentsTrustBackend {
  /** What waits for trust, or null (nothing to ask). */
  pending(): Promise<PendingAgents | null>;
  /** Trusts the definitions as shown; rejects when they changed since. */
  trust(hash: string): Promise<void>;
}

export const agentsTrustBackend: AgentsTrustBackend = {
  pending: () => afterFirstFrame(App.AgentsPending),
  trust: (hash) => App.AgentsTrustWorkspace(hash),
};


/** Settings → Trusted folders. */
export interface TrustedFoldersBackend {
  list(): Promise<TrustedFolder[]>;
  /** Forgets what the folder is trusted for; resolves to the folders still trusted. */
  revoke(folder: string): Promise<TrustedFolder[]>;
}

export const trustedFoldersBackend: TrustedFoldersBackend = {
  list: async () => (await App.TrustedFolders()) ?? [],
  revoke: async (folder) => (await App.RevokeTrust(folder)) ?? [],
};
