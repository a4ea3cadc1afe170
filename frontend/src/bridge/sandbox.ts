// The sandbox and crash-recovery side of the bridge: whether commands run
// confined (settings, header), and the process groups a crashed run left
// (process panel). Components get these interfaces, so tests pass fakes.
import { App } from "./bound.gen";
import { afterFirstFrame } from "./paint";
import type { Leftover, SandboxView } from "./protocol.gen";

export type { Leftover, SandboxView };



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
  get: () => App.Sandbox(),
  set: (mode, denyTCP) => App.SetSandbox(mode, denyTCP),
  setLists: (denyRead, sockets) => App.SetSandboxLists(denyRead, sockets),
  setNetwork: (mode, allow) => App.SetNetwork(mode, allow),
  allowDomain: (domain) => App.AllowDomain(domain),
  allowDomainAlways: async (domain) => { await App.AllowDomainAlways(domain); },
};

export const leftoverBackend: LeftoverBackend = {
  list: async () => (await afterFirstFrame(App.Leftovers)) ?? [],
  stop: async (id) => (await App.StopLeftover(id)) ?? [],
};
