// The workspace's own hooks (.gatehouse/hooks.json) as the trust banner
// asks for them: the bound WorkspaceHooks* methods.
import type { TrustBackend } from "./agents";
import { App } from "./bound.gen";
import type { WaitingHookFile } from "./protocol.gen";

export type { WaitingHookFile };

export const hooksTrustBackend: TrustBackend<WaitingHookFile> = {
  // Called in a promise: a page without the bindings (unit tests) gets a
  // rejection the banner treats as nothing to ask, not a throw.
  pending: () =>
    Promise.resolve()
      .then(() => App.WorkspaceHooksPending())
      .then((p) => (p ? { hash: p.hash, files: p.files } : null)),
  trust: (hash) => App.WorkspaceHooksTrust(hash),
};
