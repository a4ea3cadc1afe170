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

/** The workspace's definitions waiting for trust; hash names exactly the content shown. */
export interface PendingAgents {
  hash: string;
  files: PendingAgentFile[];
}

export interface AgentsTrustBackend {
  /** What waits for trust, or null (nothing to ask). */
  pending(): Promise<PendingAgents | null>;
  /** Trusts the definitions as shown; rejects when they changed since. */
  trust(hash: string): Promise<void>;
}

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
