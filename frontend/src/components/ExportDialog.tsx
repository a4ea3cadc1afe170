import { useState } from "react";
import type { ReviewBackend } from "../bridge/review";

/**
 * Sessions → Export: the open session (or a range of its turns) written as
 * Markdown, one self-contained HTML page or JSON Lines, with pictures
 * embedded or listed; secrets are masked by the backend. Says where the file
 * went.
 */
export function ExportDialog({ backend, onClose }: { backend: ReviewBackend; onClose: () => void }) {
  const [format, setFormat] = useState("html");
  const [turns, setTurns] = useState("");
  const [embed, setEmbed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [path, setPath] = useState("");
  const [error, setError] = useState("");
  const run = () => {
    setBusy(true);
    setError("");
    backend.exportSession({ sessionId: "", format, turns: turns.trim(), embedImages: embed }).then(setPath, (e) => setError(String(e)))
      .finally(() => setBusy(false));
  };
  return (
    <div className="help-backdrop" role="presentation" onKeyDown={(e) => e.key === "Escape" && onClose()}>
      <div role="dialog" aria-modal="true" aria-label="Export the session" className="help-overlay export-dialog">
        <h2>Export the session</h2>
        <label>Format{" "}
          <select aria-label="Format" value={format} onChange={(e) => setFormat(e.target.value)}>
            <option value="html">HTML page (one file, loads nothing)</option>
            <option value="md">Markdown</option>
            <option value="jsonl">JSON Lines</option>
          </select>
        </label>
        <label>Turns{" "}
          <input aria-label="Turns" placeholder="all, or 2-5" value={turns} onChange={(e) => setTurns(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={embed} onChange={(e) => setEmbed(e.target.checked)} /> Embed pictures (else list them)
        </label>
        <p className="settings-note">The API key, secret-named environment values and token shapes are masked.</p>
        {error && <p role="alert" className="changes-error">{error}</p>}
        {path && <p role="status">Written to <code className="mono">{path}</code></p>}
        <div className="export-buttons">
          <button type="button" onClick={run} disabled={busy}>{busy ? "Exporting…" : "Export"}</button>
          <button type="button" className="secondary" onClick={onClose}>Close</button>
        </div>
      </div>
    </div>
  );
}
