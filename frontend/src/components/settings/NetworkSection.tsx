import { useCallback, useEffect, useState } from "react";
import type { SandboxView } from "../../bridge/sandbox";
import { SaveBar, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

/** Settings → Network: whether confined commands may open TCP connections. */
export function NetworkSection({ deps, setDirty, onSaved, goTo }: SectionProps) {
  const backend = deps.sandbox;
  const [view, setView] = useState<SandboxView | null>(null);
  const [denyTCP, setDenyTCP] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    backend?.get().then((v) => (setView(v), setDenyTCP(v.denyTCP)), (e) => setError(`Could not read the sandbox: ${String(e)}`));
  }, [backend]);
  const dirty = view !== null && denyTCP !== view.denyTCP;
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    if (!backend) return;
    const now = await backend.get(); // the Sandbox section's mode as saved now
    const v = await backend.set(now.mode, denyTCP);
    setView(v);
    setDenyTCP(v.denyTCP);
    onSaved();
  }, [backend, denyTCP, onSaved]));
  if (!backend) return <p className="settings-note">The network of commands cannot be set from this window.</p>;
  if (!view) return error ? <p className="settings-error" role="alert">{error}</p> : <p className="settings-note">Reading the sandbox…</p>;
  const unconfined = !view.available || view.mode === "off";
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      <label className="settings-choice">
        <input type="checkbox" checked={denyTCP} disabled={unconfined} onChange={(e) => (setDenyTCP(e.target.checked), save.reset())} />
        {" "}Refuse network connections to confined commands: TCP, MPTCP and UDP (DNS included).
      </label>
      {unconfined && (
        <p className="settings-note">
          Commands are not confined, so they reach the network as you do. See{" "}
          <button type="button" className="link-button" onClick={() => goTo("sandbox")}>Sandbox</button>.
        </p>
      )}
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
