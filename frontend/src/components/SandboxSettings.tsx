import { useCallback, useEffect, useState } from "react";
import type { SandboxView } from "../bridge/sandbox";
import { SaveBar, useSave } from "./settings/SaveBar";
import type { SectionProps } from "./settings/sections";

/**
 * Settings → Sandbox: confine commands or not, and where a confined command
 * may write. Only the user changes this; the model cannot. The choice is a
 * draft until Save, like every section's (the TCP choice is in Network).
 */
export function SandboxSettings({ deps, setDirty, onSaved, goTo }: SectionProps) {
  const backend = deps.sandbox;
  const [view, setView] = useState<SandboxView | null>(null);
  const [mode, setMode] = useState("workspace-write");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    backend?.get().then((v) => (setView(v), setMode(v.mode)), (e) => setError(`Could not read the sandbox: ${String(e)}`));
  }, [backend]);
  const dirty = view !== null && (mode === "off") !== (view.mode === "off");
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    if (!backend) return;
    const now = await backend.get(); // Network's TCP choice as saved now
    const v = await backend.set(mode, now.denyTCP);
    setView(v);
    setMode(v.mode);
    onSaved();
  }, [backend, mode, onSaved]));
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
      {view.confined && view.writable.length > 0 && (
        <details className="settings-details">
          <summary>Where confined commands may write</summary>
          <ul className="mono">{view.writable.map((w) => <li key={w}>{w}</li>)}</ul>
        </details>
      )}
      <p className="settings-note">
        Whether confined commands may open network connections is in{" "}
        <button type="button" className="link-button" onClick={() => goTo("network")}>Network</button>.
      </p>
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
