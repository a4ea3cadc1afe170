import type { TrustBackend } from "../bridge/agents";
import type { WaitingHookFile } from "../bridge/hooksTrust";
import { TrustPrompt } from "./TrustPrompt";

/**
 * The prompt for the workspace's own hooks (.gatehouse/hooks.json, and
 * those of its agent definitions, each named by its agent) while the
 * folder is not trusted for them, or a file or a script they name changed
 * since: every hook's command, and every script named inside the
 * workspace. Trusted hooks run confined, as the agent's commands do.
 */
export function HooksTrust({ backend, refresh, onTrusted }: { backend: TrustBackend<WaitingHookFile>; refresh?: unknown; onTrusted?: () => void }) {
  return (
    <TrustPrompt backend={backend} refresh={refresh} onTrusted={onTrusted}
      label="Workspace hooks waiting for trust" fileLabel={(p) => `Hooks file ${p}`}
      intro={<>This folder's hooks (<code>.gatehouse/hooks.json</code>, and those of its agent definitions) run commands around the agent's calls and turns:</>}
      describe={(f: WaitingHookFile) =>
        f.commands?.length ? (
          <>
            {f.agent && <div className="settings-muted">agent {f.agent}: for its subagents' calls</div>}
            <ul className="trust-prompt-commands">
              {f.commands.map((c) => (
                <li key={c}><code>{c}</code></li>
              ))}
            </ul>
          </>
        ) : null
      }
      caution="A hook runs its command on every matching event, confined to this folder, and can refuse or rewrite the agent's calls. Trust them only if you trust this folder."
      refusedNote="These files cannot be trusted: a hook's script must be a regular file in the folder, not a link." />
  );
}
