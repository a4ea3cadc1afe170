import { useCallback, useEffect, useState } from "react";
import type { SandboxView } from "../../bridge/sandbox";
import { SaveBar, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

/** The network mode a view says: its setting, else off when TCP is refused. */
const modeOf = (v: SandboxView) => v.networkMode || (v.denyTCP ? "off" : "on");
const listOf = (v: SandboxView) => (v.networkAllow ?? []).join("\n");
const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

const modes = [
  { id: "on", label: "On: confined commands reach the network as you do." },
  { id: "off", label: "Off: refuse network connections to confined commands: TCP, MPTCP and UDP (DNS included). web_fetch fetches nothing." },
  { id: "allow-list", label: "Allow-list: commands reach only the domains below, through Gatehouse's proxy; web_fetch too." },
];

/** Settings → Network: on, off, or an allow-list of domains, for confined commands and web_fetch alike. */
export function NetworkSection({ deps, setDirty, onSaved, goTo }: SectionProps) {
  const backend = deps.sandbox;
  const [view, setView] = useState<SandboxView | null>(null);
  const [mode, setMode] = useState("on");
  const [allow, setAllow] = useState("");
  const [error, setError] = useState<string | null>(null);
  const show = useCallback((v: SandboxView) => (setView(v), setMode(modeOf(v)), setAllow(listOf(v))), []);
  useEffect(() => {
    backend?.get().then(show, (e) => setError(`Could not read the sandbox: ${String(e)}`));
  }, [backend, show]);
  const dirty = view !== null && (mode !== modeOf(view) || lines(allow).join("\n") !== listOf(view));
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    if (!backend) return;
    if (backend.setNetwork) {
      show(await backend.setNetwork(mode, lines(allow)));
    } else {
      const now = await backend.get(); // the Sandbox section's mode as saved now
      show(await backend.set(now.mode, mode === "off"));
    }
    onSaved();
  }, [backend, mode, allow, onSaved, show]));
  if (!backend) return <p className="settings-note">The network of commands cannot be set from this window.</p>;
  if (!view) return error ? <p className="settings-error" role="alert">{error}</p> : <p className="settings-note">Reading the sandbox…</p>;
  const unconfined = !view.available || view.mode === "off";
  const choices = backend.setNetwork ? modes : modes.filter((m) => m.id !== "allow-list");
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      <fieldset className="settings-stack">
        <legend>Network of confined commands and web_fetch</legend>
        {choices.map((m) => (
          <label key={m.id} className="settings-choice">
            <input type="radio" name="network-mode" value={m.id} checked={mode === m.id}
              onChange={() => (setMode(m.id), save.reset())} />
            {" "}{m.label}
          </label>
        ))}
      </fieldset>
      {backend.setNetwork && (
        <label className="settings-stack">
          Allowed domains (one a line; *.example.com covers the names below example.com, not example.com itself)
          <textarea className="mono" rows={5} value={allow} disabled={mode !== "allow-list"}
            onChange={(e) => (setAllow(e.target.value), save.reset())} />
        </label>
      )}
      {mode === "allow-list" && (
        <p className="settings-note">
          Commands get $HTTPS_PROXY, $HTTP_PROXY and $ALL_PROXY (curl, npm, pip, git and go use them); a direct connection fails,
          but the session's own servers stay reachable (localhost). A refused domain is named on the command's card, with a
          button to allow it for the session. web_fetch reaches only these domains, without asking in safe mode.
        </p>
      )}
      {unconfined && (
        <p className="settings-note">
          Commands are not confined, so they reach the network as you do; this setting holds for web_fetch only. See{" "}
          <button type="button" className="link-button" onClick={() => goTo("sandbox")}>Sandbox</button>.
        </p>
      )}
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
