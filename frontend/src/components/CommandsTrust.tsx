import type { CommandsTrustBackend, PendingCommandFile } from "../bridge/commands";
import { TrustPrompt } from "./TrustPrompt";

/**
 * The prompt for the workspace's own slash commands
 * (.gatehouse/commands/*.md) while the folder is not trusted for them, or
 * they changed since: each file with its /name, description and the prompt
 * it would send in your name.
 */
export function CommandsTrust({ backend, refresh, onTrusted }: { backend: CommandsTrustBackend; refresh?: unknown; onTrusted?: () => void }) {
  return (
    <TrustPrompt backend={backend} refresh={refresh} onTrusted={onTrusted}
      label="Workspace commands waiting for trust" fileLabel={(p) => `Command file ${p}`}
      intro={<>This folder's <code>.gatehouse/commands/</code> defines slash commands for the composer:</>}
      describe={(f: PendingCommandFile) => (
        <>
          {" "}— <strong>/{f.name}</strong>{f.description && <>: {f.description}</>}
          <pre className="trust-prompt-text">{f.prompt}</pre>
        </>
      )}
      caution="A command sends its text as your message. Trust them only if you trust this folder."
      refusedNote="These files are never loaded: a command must be a regular file in the folder, not a link." />
  );
}
