import { useState } from "react";
import type { GitBackend, GitSettings } from "../../bridge/git";

/**
 * The banner of a repository whose git settings are not trusted: git runs
 * without its hooks, fsmonitor, filters and textconv until the user trusts
 * exactly the files listed (the config's includes and hooks folder too, with
 * a warning when one is in the working tree); committing waits for that.
 */
export function GitTrust({ git, settings, onTrusted }: { git: GitBackend; settings: GitSettings; onTrusted: () => void }) {
  const [error, setError] = useState("");
  const trust = () => git.trustSettings(settings.hash).then(onTrusted, (e) => setError(String(e)));
  return (
    <div className="changes-trust" role="region" aria-label="Git settings not trusted">
      <p>
        Git runs here without this repository's own hooks, fsmonitor, filters and textconv: a downloaded folder's
        .git/config could run programs. Committing runs them, so it waits until you trust them.
      </p>
      {(settings.files ?? []).length > 0 && (
        <details>
          <summary>What trust covers ({(settings.files ?? []).length} files)</summary>
          <ul>{(settings.files ?? []).map((f) => <li key={f} className="mono">{f}</li>)}</ul>
        </details>
      )}
      {settings.warnings?.map((w) => <p key={w} className="changes-error" role="note">Warning: {w}</p>)}
      {settings.refused?.map((r) => <p key={r} className="changes-error">{r}</p>)}
      {settings.hash && !settings.refused?.length && (
        <button type="button" className="secondary" onClick={trust}>Trust git settings</button>
      )}
      {error && <p role="alert" className="changes-error">{error}</p>}
    </div>
  );
}
