// The sandbox and crash-recovery side of the bridge: whether commands run
// confined (settings, header), and the process groups a crashed run left
// (process panel). Components get these interfaces, so tests pass fakes.
import * as App from "./wailsjs/go/gui/App";

export interface SandboxView {
  /** workspace-write or off: the user's setting. */
  mode: string;
  /** The kernel has Landlock and the supervisor helper is there. */
  available: boolean;
  /** Commands started now run confined. */
  confined: boolean;
  /** Why commands are not confined, in plain words. */
  reason?: string;
  /** The network is off for confined commands: TCP, MPTCP and UDP. */
  denyTCP: boolean;
  /** Where a confined command may write. */
  writable: string[];
  /** The active layers, in plain words (namespaces, Landlock, seccomp). */
  layers?: string[];
  /** No namespaces here: Landlock alone; missing says what that costs. */
  landlockOnly?: boolean;
  missing?: string;
  /** What a confined command cannot read (existing paths, ~ shortened). */
  denyRead?: string[];
  /** Paths inside the workspace kept read-only. */
  readOnly?: string[];
  sockets?: string;
  network?: string;
  signals?: string;
  /** All of the above in one line, as the dialog says it. */
  line?: string;
  /** The deny-read list as set, and the sockets commands may reach. */
  denyList?: string[];
  socketList?: string[];
  /** The network setting: on, off or allow-list; and the allow-list's domains. */
  networkMode?: string;
  networkAllow?: string[];
}

/** A process group a crashed run of the app left running. */
export interface Leftover {
  id: string;
  command: string;
  cwd: string;
  startedAt: string;
  pgid: number;
  pids: number[];
}

export interface SandboxBackend {
  get(): Promise<SandboxView>;
  set(mode: string, denyTCP: boolean): Promise<SandboxView>;
  /** Saves the deny-read list and the Unix sockets commands may reach. */
  setLists?(denyRead: string[], sockets: string[]): Promise<SandboxView>;
  /** Saves the network: on, off or allow-list, and the allow-list; rejects with the reason (a bad domain). */
  setNetwork?(mode: string, allow: string[]): Promise<SandboxView>;
  /** Lets the open session reach domain from now on (a refused domain's card). */
  allowDomain?(domain: string): Promise<void>;
  /** Adds domain to the network allow-list for good (a refused domain's card, after the user confirmed); rejects with the reason. */
  allowDomainAlways?(domain: string): Promise<void>;
}

export interface LeftoverBackend {
  list(): Promise<Leftover[]>;
  /** Stops one; resolves to those still left. */
  stop(id: string): Promise<Leftover[]>;
}

export const sandboxBackend: SandboxBackend = {
  get: async () => (await App.Sandbox()) as unknown as SandboxView,
  set: async (mode, denyTCP) => (await App.SetSandbox(mode, denyTCP)) as unknown as SandboxView,
  setLists: async (denyRead, sockets) => (await App.SetSandboxLists(denyRead, sockets)) as unknown as SandboxView,
  setNetwork: async (mode, allow) => (await App.SetNetwork(mode, allow)) as unknown as SandboxView,
  allowDomain: (domain) => App.AllowDomain(domain),
  allowDomainAlways: async (domain) => { await App.AllowDomainAlways(domain); },
};

export const leftoverBackend: LeftoverBackend = {
  list: async () => ((await App.Leftovers()) ?? []) as unknown as Leftover[],
  stop: async (id) => ((await App.StopLeftover(id)) ?? []) as unknown as Leftover[],
};
