// Trust for the workspace's agent definitions (.gatehouse/agents/*.md):
// the bound Agents* methods. Components get an AgentsTrustBackend, so unit
// tests pass a fake one.
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import type { FolderTrust, Pending, PendingFile } from "./protocol.gen";

/** One file of .gatehouse/agents/ as the trust prompt shows it. */
export type PendingAgentFile = PendingFile;

/** Workspace content waiting for trust; hash names exactly the content shown ("" when only refused files are listed). */
export interface PendingTrust<F extends { path: string; error?: string }> {
  hash: string;
  files: F[] | null;
}

/** One kind of workspace content's trust: agent definitions, slash commands. */
export interface TrustBackend<F extends { path: string; error?: string }> {
  /** What waits for trust, or null (nothing to ask). */
  pending(): Promise<PendingTrust<F> | null>;
  /** Trusts the content as shown; rejects when it changed since. */
  trust(hash: string): Promise<void>;
}

/** The workspace's definitions waiting for trust. */
export type PendingAgents = Pending;
/** A folder the user trusts, and what it trusts: "mcp" (its servers), "agents" (its agent definitions). */
export type TrustedFolder = FolderTrust;

export type AgentsTrustBackend = TrustBackend<PendingAgentFile>;

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
