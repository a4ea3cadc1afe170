import { useEffect, useState } from "react";
import type { TrustedFolder, TrustedFoldersBackend } from "../bridge/agents";

const kindWords: Record<string, string> = {
  mcp: "its MCP servers (.gatehouse/mcp.json)",
  agents: "its agent definitions (.gatehouse/agents/)",
  commands: "its slash commands (.gatehouse/commands/)",
  git: "its git settings and hooks (.git/config, .git/hooks/), run by the Changes view",
  hooks: "its agent hooks (.gatehouse/hooks.json and the scripts it names), run confined",
};

/**
 * The Trusted folders block of Settings: each folder the user trusted and
 * what for, with Revoke. Revoking the open folder stops its servers and
 * agents at once; its prompts ask again.
 */
export function TrustedFolders({ backend }: { backend: TrustedFoldersBackend }) {
  const [folders, setFolders] = useState<TrustedFolder[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    backend.list().then(setFolders, (e) => setError(`Could not read the trusted folders: ${String(e)}`));
  }, [backend]);
  const revoke = (folder: string) =>
    backend.revoke(folder).then((f) => { setFolders(f); setError(null); }, (e) => setError(String(e)));
  return (
    <fieldset className="settings-trusted">
      <legend>Trusted folders</legend>
      <p className="settings-note">A folder you trust may start its own servers and offer its own agents. Revoking applies at once.</p>
      {folders !== null && folders.length === 0 && <p className="empty">No folder is trusted.</p>}
      {folders && folders.length > 0 && (
        <ul className="trusted-folders" aria-label="Trusted folders">
          {folders.map((f) => (
            <li key={f.folder} aria-label={`Trusted folder ${f.folder}`}>
              <code className="mono">{f.folder}</code>
              <ul>{(f.kinds ?? []).map((k) => <li key={k.kind}>{kindWords[k.kind] ?? k.kind}</li>)}</ul>
              <button type="button" onClick={() => void revoke(f.folder)} aria-label={`Revoke trust in ${f.folder}`}>Revoke</button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="settings-error" role="alert">{error}</p>}
    </fieldset>
  );
}
