// Trust for the workspace's agent definitions (.gatehouse/agents/*.md):
// the bound Agents* methods. Components get an AgentsTrustBackend, so unit
// tests pass a fake one.
import * as App from "./wailsjs/go/gui/App";

/** One file of .gatehouse/agents/ as the trust prompt shows it. */
export interface PendingAgentFile {
  path: string;
  definition?: { name: string; description: string; tools?: string[]; readOnly?: boolean; model?: string };
  error?: string;
}

/** Workspace content waiting for trust; hash names exactly the content shown ("" when only refused files are listed). */
export interface PendingTrust<F extends { path: string; error?: string }> {
  hash: string;
  files: F[];
}

/** One kind of workspace content's trust: agent definitions, slash commands. */
export interface TrustBackend<F extends { path: string; error?: string }> {
  /** What waits for trust, or null (nothing to ask). */
  pending(): Promise<PendingTrust<F> | null>;
  /** Trusts the content as shown; rejects when it changed since. */
  trust(hash: string): Promise<void>;
}

/** The workspace's definitions waiting for trust. */
export type PendingAgents = PendingTrust<PendingAgentFile>;

export type AgentsTrustBackend = TrustBackend<PendingAgentFile>;

export const agentsTrustBackend: AgentsTrustBackend = {
  pending: async () => ((await App.AgentsPending()) as unknown as PendingAgents | null) ?? null,
  trust: (hash) => App.AgentsTrustWorkspace(hash),
};

/** A folder the user trusts, and what it trusts: "mcp" (its servers), "agents" (its agent definitions). */
export interface TrustedFolder {
  folder: string;
  kinds: { kind: string; at: string }[];
}

/** Settings → Trusted folders. */
export interface TrustedFoldersBackend {
  list(): Promise<TrustedFolder[]>;
  /** Forgets what the folder is trusted for; resolves to the folders still trusted. */
  revoke(folder: string): Promise<TrustedFolder[]>;
}

export const trustedFoldersBackend: TrustedFoldersBackend = {
  list: async () => ((await App.TrustedFolders()) ?? []) as unknown as TrustedFolder[],
  revoke: async (folder) => ((await App.RevokeTrust(folder)) ?? []) as unknown as TrustedFolder[],
};
