import { useEffect, useState } from "react";
import type { SandboxBackend, SandboxView } from "../bridge/sandbox";

/**
 * The sandbox block of Settings: confine commands or not, refuse TCP or
 * not, and where a confined command may write. Changes apply to the next
 * command. Only the user changes this; the model cannot.
 */
export function SandboxSettings({ backend }: { backend: SandboxBackend }) {
  const [view, setView] = useState<SandboxView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    backend.get().then(setView, (e) => setError(`Could not read the sandbox: ${String(e)}`));
  }, [backend]);
  if (!view) return error ? <p className="settings-error" role="alert">{error}</p> : null;
  const save = (mode: string, denyTCP: boolean) =>
    backend.set(mode, denyTCP).then((v) => { setView(v); setError(null); }, (e) => setError(String(e)));
  return (
    <fieldset className="settings-sandbox">
      <legend>Sandbox for commands</legend>
      <label>
        <input type="radio" name="sandbox-mode" checked={view.mode !== "off"} disabled={!view.available}
          onChange={() => save("workspace-write", view.denyTCP)} />
        {" "}Confined: commands write only in the workspace, temp and tool caches
      </label>
      <label>
        <input type="radio" name="sandbox-mode" checked={view.mode === "off"} disabled={!view.available}
          onChange={() => save("off", view.denyTCP)} />
        {" "}Off: commands can write anywhere you can
      </label>
      <label>
        <input type="checkbox" checked={view.denyTCP} disabled={!view.available || view.mode === "off"}
          onChange={(e) => save(view.mode, e.target.checked)} />
        {" "}Refuse network connections (TCP). UDP, DNS included, cannot be refused.
      </label>
      <p className="settings-note" role="status">
        {view.confined ? "Commands run confined." : view.reason}
      </p>
      {view.confined && view.writable.length > 0 && (
        <details>
          <summary>Where confined commands may write</summary>
          <ul className="mono">{view.writable.map((w) => <li key={w}>{w}</li>)}</ul>
        </details>
      )}
      {error && <p className="settings-error" role="alert">{error}</p>}
    </fieldset>
  );
}
