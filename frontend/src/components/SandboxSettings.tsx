import { useEffect, useState } from "react";
import type { SandboxBackend, SandboxView } from "../bridge/sandbox";

const lines = (s: string) => s.split("\n").map((l) => l.trim()).filter((l) => l !== "");

/**
 * The sandbox block of Settings: confine commands or not, the network off
 * or on, the layers active on this system, what a confined command cannot
 * read, and the Unix sockets it may reach. Changes apply to the next
 * command. Only the user changes this; the model cannot.
 */
export function SandboxSettings({ backend }: { backend: SandboxBackend }) {
  const [view, setView] = useState<SandboxView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deny, setDeny] = useState("");
  const [socks, setSocks] = useState("");
  const show = (v: SandboxView) => {
    setView(v);
    setDeny((v.denyList ?? []).join("\n"));
    setSocks((v.socketList ?? []).join("\n"));
  };
  useEffect(() => {
    backend.get().then(show, (e) => setError(`Could not read the sandbox: ${String(e)}`));
  }, [backend]);
  if (!view) return error ? <p className="settings-error" role="alert">{error}</p> : null;
  const save = (mode: string, denyTCP: boolean) =>
    backend.set(mode, denyTCP).then((v) => { show(v); setError(null); }, (e) => setError(String(e)));
  const saveLists = () =>
    backend.setLists?.(lines(deny), lines(socks)).then((v) => { show(v); setError(null); }, (e) => setError(String(e)));
  const off = !view.available || view.mode === "off";
  return (
    <fieldset className="settings-sandbox">
      <legend>Sandbox for commands</legend>
      <label>
        <input type="radio" name="sandbox-mode" checked={view.mode !== "off"} disabled={!view.available}
          onChange={() => save("workspace-write", view.denyTCP)} />
        {" "}Confined: commands write only in the workspace, temp and Gatehouse's tool caches
      </label>
      <label>
        <input type="radio" name="sandbox-mode" checked={view.mode === "off"} disabled={!view.available}
          onChange={() => save("off", view.denyTCP)} />
        {" "}Off: commands can write anywhere you can
      </label>
      <label>
        <input type="checkbox" checked={view.denyTCP} disabled={off}
          onChange={(e) => save(view.mode, e.target.checked)} />
        {" "}Network off for commands (TCP, MPTCP and UDP)
      </label>
      <p className="settings-note" role="status">
        {view.confined ? "Commands run confined." : view.reason}
      </p>
      {view.confined && (view.layers ?? []).length > 0 && (
        <p className="settings-note sandbox-layers">Active layers: {(view.layers ?? []).join(", ")}</p>
      )}
      {view.confined && view.landlockOnly && view.missing && (
        <p className="settings-note sandbox-missing" role="note">{view.missing}</p>
      )}
      {view.confined && view.writable.length > 0 && (
        <details>
          <summary>Where confined commands may write</summary>
          <ul className="mono">{view.writable.map((w) => <li key={w}>{w}</li>)}</ul>
        </details>
      )}
      {view.confined && view.signals && (
        <p className="settings-note">Signals: {view.signals}. Network: {view.network}. Sockets: {view.sockets}.</p>
      )}
      {backend.setLists && (
        <>
          <label className="settings-stack">
            Commands cannot read (one path a line, ~/ is your home folder)
            <textarea className="mono" rows={6} value={deny} disabled={off} onChange={(e) => setDeny(e.target.value)} />
          </label>
          <label className="settings-stack">
            Unix sockets commands may reach (none by default; a path, or $SSH_AUTH_SOCK)
            <textarea className="mono" rows={2} value={socks} disabled={off} onChange={(e) => setSocks(e.target.value)} />
          </label>
          <button type="button" disabled={off} onClick={saveLists}>Save sandbox lists</button>
        </>
      )}
      {error && <p className="settings-error" role="alert">{error}</p>}
    </fieldset>
  );
}
