import { useCallback, useEffect, useState } from "react";
import type { SandboxView } from "../bridge/sandbox";
import { SaveBar, useSave } from "./settings/SaveBar";
import type { SectionProps } from "./settings/sections";

const lines = (s: string) => s.split("\n").map((l) => l.trim()).filter((l) => l !== "");

/**
 * Settings → Sandbox: confine commands or not, the layers active on this
 * system, where a confined command may write, what it cannot read and the
 * Unix sockets it may reach. Only the user changes this; the model cannot.
 * The choices are a draft until Save, like every section's (the network
 * choice is in Network).
 */
export function SandboxSettings({ deps, setDirty, onSaved, goTo }: SectionProps) {
  const backend = deps.sandbox;
  const [view, setView] = useState<SandboxView | null>(null);
  const [mode, setMode] = useState("workspace-write");
  const [deny, setDeny] = useState("");
  const [socks, setSocks] = useState("");
  const [error, setError] = useState<string | null>(null);
  const show = (v: SandboxView) => {
    setView(v);
    setMode(v.mode);
    setDeny((v.denyList ?? []).join("\n"));
    setSocks((v.socketList ?? []).join("\n"));
  };
  useEffect(() => {
    backend?.get().then(show, (e) => setError(`Could not read the sandbox: ${String(e)}`));
  }, [backend]);
  const listsDirty = view !== null && (lines(deny).join("\n") !== (view.denyList ?? []).join("\n") ||
    lines(socks).join("\n") !== (view.socketList ?? []).join("\n"));
  const dirty = view !== null && ((mode === "off") !== (view.mode === "off") || listsDirty);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    if (!backend) return;
    const now = await backend.get(); // Network's TCP choice as saved now
    let v = await backend.set(mode, now.denyTCP);
    if (backend.setLists && listsDirty) v = await backend.setLists(lines(deny), lines(socks));
    show(v);
    onSaved();
  }, [backend, mode, deny, socks, listsDirty, onSaved]));
  if (!backend) return <p className="settings-note">The sandbox cannot be set from this window.</p>;
  if (!view) return error ? <p className="settings-error" role="alert">{error}</p> : <p className="settings-note">Reading the sandbox…</p>;
  const pick = (m: string) => (setMode(m), save.reset());
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      <fieldset className="settings-sandbox">
        <legend>Sandbox for commands</legend>
        <label className="settings-choice">
          <input type="radio" name="sandbox-mode" checked={mode !== "off"} disabled={!view.available} onChange={() => pick("workspace-write")} />
          {" "}Confined: commands write only in the workspace, temp and tool caches
        </label>
        <label className="settings-choice">
          <input type="radio" name="sandbox-mode" checked={mode === "off"} disabled={!view.available} onChange={() => pick("off")} />
          {" "}Off: commands can write anywhere you can
        </label>
      </fieldset>
      <p className="settings-note" role="status">
        {view.confined ? "Commands run confined." : view.reason}
      </p>
      {view.confined && (view.layers ?? []).length > 0 && (
        <p className="settings-note sandbox-layers">Active layers: {(view.layers ?? []).join(", ")}</p>
      )}
      {view.confined && view.landlockOnly && view.missing && (
        <p className="settings-note sandbox-missing" role="note">{view.missing}</p>
      )}
      {view.confined && view.policyReads && (
        <p className="settings-note sandbox-policy-reads" role="note">{view.policyReads}</p>
      )}
      {view.confined && view.signals && (
        <p className="settings-note">Signals: {view.signals}. Sockets: {view.sockets}.</p>
      )}
      {view.confined && (view.writable ?? []).length > 0 && (
        <details className="settings-details">
          <summary>Where confined commands may write</summary>
          <ul className="mono">{(view.writable ?? []).map((w) => <li key={w}>{w}</li>)}</ul>
        </details>
      )}
      {backend.setLists && (
        <>
          <label className="settings-stack">
            Commands cannot read (one path a line, ~/ is your home folder)
            <textarea className="mono" rows={6} value={deny} disabled={mode === "off" || !view.available}
              onChange={(e) => (setDeny(e.target.value), save.reset())} />
          </label>
          <label className="settings-stack">
            Unix sockets commands may reach (none by default; a path, or $SSH_AUTH_SOCK)
            <textarea className="mono" rows={2} value={socks} disabled={mode === "off" || !view.available}
              onChange={(e) => (setSocks(e.target.value), save.reset())} />
          </label>
        </>
      )}
      <p className="settings-note">
        Whether confined commands may open network connections is in{" "}
        <button type="button" className="link-button" onClick={() => goTo("network")}>Network</button>.
      </p>
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
