import { useCallback, useEffect, useState } from "react";
import type { McpServer, McpTrustServer } from "../bridge";
import type { McpBackend, McpPanelState, McpServerConfig } from "../bridge/mcp";
import { McpServerForm } from "./McpServerForm";
import "./McpPanel.css";

type Editing = { oldName: string; config: McpServerConfig } | null;

function stateText(s: McpServer): string {
  switch (s.state) {
    case "ready": {
      const n = s.tools?.length ?? 0;
      return `ready · ${n} ${n === 1 ? "tool" : "tools"}`;
    }
    case "starting":
      return "starting…";
    default:
      return s.state;
  }
}

/**
 * The MCP servers panel: each server's state (starting, ready with its
 * tools, failed with its last stderr lines, disabled), a switch per tool,
 * Restart, Disable, Edit and Remove; Add, the raw JSON of the user's list,
 * Claude Desktop's import, and the trust question for a workspace's list.
 */
export function McpPanel({ backend }: { backend: McpBackend }) {
  const [state, setState] = useState<McpPanelState | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [raw, setRaw] = useState<string | null>(null);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");

  const refresh = useCallback(() => backend.list().then(setState, (e) => setError(String(e))), [backend]);
  useEffect(() => {
    void refresh();
    return backend.subscribe((p) => setState((s) => ({ claudeImport: s?.claudeImport ?? false, ...p })));
  }, [backend, refresh]);

  const run = (p: Promise<unknown>, done?: () => void) =>
    p.then(() => {
      setError("");
      done?.();
    }, (e) => setError(String(e)));

  const edit = (name: string) =>
    backend.config(name).then((c) => setEditing({ oldName: name, config: c.config }), (e) => setError(String(e)));

  if (!state) return <p className="empty">{error || "Loading servers…"}</p>;
  if (editing) {
    return (
      <McpServerForm initialName={editing.oldName} initial={editing.config} onCancel={() => setEditing(null)}
        onSave={(name, cfg) => backend.put(editing.oldName, name, cfg).then(() => setEditing(null))} />
    );
  }
  if (raw !== null) {
    return (
      <form className="mcp-raw" aria-label="Your servers as JSON" onSubmit={(e) => (e.preventDefault(), void run(backend.saveRaw(raw), () => setRaw(null)))}>
        <p className="mcp-note">The mcpServers format of Claude Desktop and Cursor. Secrets show as •••••• and stay as they are unless you replace them.</p>
        <textarea aria-label="mcpServers JSON" rows={16} spellCheck={false} value={raw} onChange={(e) => setRaw(e.target.value)} />
        {error && <p className="mcp-error" role="alert">{error}</p>}
        <div className="mcp-buttons">
          <button type="button" onClick={() => (setRaw(null), setError(""))}>Cancel</button>
          <button type="submit" className="primary">Save</button>
        </div>
      </form>
    );
  }
  const servers = state.servers ?? [];
  return (
    <div className="mcp-panel">
      {state.untrusted && (
        <section className="mcp-trust" role="alert" aria-label="Workspace servers waiting for trust">
          <p>This folder's <code>{state.untrusted.file}</code> wants to start:</p>
          {state.untrusted.servers?.length ? (
            <ul>{state.untrusted.servers.map((s) => <TrustServer key={s.name} server={s} />)}</ul>
          ) : (
            <ul>{(state.untrusted.lines ?? []).map((l) => <li key={l}><code>{l}</code></li>)}</ul>
          )}
          <p>They run confined by the sandbox, in this folder, with your environment. Start them only if you trust this folder.</p>
          <button type="button" className="primary" onClick={() => void run(backend.trust())}>Trust and start</button>
        </section>
      )}
      {state.problem && <p className="mcp-error" role="alert">{state.problem}</p>}
      {error && <p className="mcp-error" role="alert">{error}</p>}
      {note && <p className="mcp-note" role="status">{note}</p>}
      {servers.length === 0 && <p className="empty">No MCP servers yet. Add one to give the agent more tools.</p>}
      <ul className="mcp-servers">
        {servers.map((s) => (
          <li key={s.name} className={`mcp-server mcp-${s.state}`} aria-label={`MCP server ${s.name}`}>
            <div className="mcp-server-head">
              <strong>{s.name}</strong>
              <span className="mcp-state" role="status" aria-label={`${s.name} state`}>{stateText(s)}</span>
            </div>
            <div className="mcp-target" title={s.source}><code>{s.target}</code></div>
            {s.error && <p className="mcp-fail">{s.error}</p>}
            {s.needsOAuth && <p className="mcp-note">This server signs in with OAuth, which Gatehouse does not support yet.</p>}
            <Reach server={s} allowList={!!state.allowList} onProxy={(on) => void run(backend.setAppProxy(s.name, on))} />
            {s.stderr && <pre className="mcp-stderr" aria-label={`${s.name} stderr`}>{s.stderr}</pre>}
            {s.state === "ready" && (s.tools ?? []).length > 0 && (
              <details className="mcp-tools">
                <summary>Tools</summary>
                <ul>
                  {(s.tools ?? []).map((t) => (
                    <li key={t.name}>
                      <label title={t.description}>
                        <input type="checkbox" checked={t.enabled} aria-label={`Offer ${t.name} to the model`}
                          onChange={(e) => void run(backend.setToolEnabled(s.name, t.name, e.target.checked))} />
                        <code>{t.name}</code>{t.readOnlyHint && <span className="mcp-hint">{s.trustReadOnlyHints ? " read-only" : " read-only (claimed)"}</span>}
                      </label>
                    </li>
                  ))}
                </ul>
              </details>
            )}
            <div className="mcp-buttons">
              {s.state !== "disabled" && <button type="button" onClick={() => void run(backend.restart(s.name))}>Restart</button>}
              <button type="button" onClick={() => void run(backend.setDisabled(s.name, s.state !== "disabled"))}>{s.state === "disabled" ? "Enable" : "Disable"}</button>
              <button type="button" onClick={() => void edit(s.name)}>Edit</button>
              <button type="button" onClick={() => window.confirm(`Remove ${s.name} from your servers?`) && void run(backend.remove(s.name))}>Remove</button>
            </div>
          </li>
        ))}
      </ul>
      <div className="mcp-buttons mcp-actions">
        <button type="button" onClick={() => setEditing({ oldName: "", config: {} })}>Add server</button>
        <button type="button" onClick={() => void backend.raw().then(setRaw, (e) => setError(String(e)))}>Edit as JSON</button>
        {state.claudeImport && (
          <button type="button" onClick={() => void backend.importClaude().then((names) => {
            setNote(names.length ? `Imported ${names.join(", ")} from Claude Desktop.` : "Claude Desktop has no server you do not have already.");
          }, (e) => setError(String(e)))}>Import from Claude Desktop</button>
        )}
      </div>
    </div>
  );
}

/**
 * What a server can reach: one of your own runs outside the sandbox and
 * past the network allow-list; a browser server Gatehouse knows can start
 * with the app's proxy instead, offered in allow-list mode.
 */
function Reach({ server: s, allowList, onProxy }: { server: McpServer; allowList: boolean; onProxy: (on: boolean) => void }) {
  if (!s.unconfined) return null;
  const what = s.browser ? "Its browser opens any site" : "It reaches anything you can";
  if (s.browser && s.appProxy) {
    return (
      <div className="mcp-reach" role="note" aria-label={`${s.name} reach`}>
        <p className="mcp-note">Runs outside the sandbox, as you. Its pages go through the app's proxy, so the network allow-list holds them.</p>
        <button type="button" onClick={() => onProxy(false)}>Start without the proxy</button>
      </div>
    );
  }
  return (
    <div className="mcp-reach" role="note" aria-label={`${s.name} reach`}>
      <p className="mcp-note">
        <span className="badge badge-warn">⚠ outside the sandbox</span> Runs as you, unconfined.{" "}
        {what}: the network allow-list does not apply to it.
      </p>
      {s.browser && allowList && (
        <button type="button" onClick={() => onProxy(true)}>Start with the app's proxy</button>
      )}
    </div>
  );
}

/** One server of a workspace's list as the trust prompt shows it: what it runs, every variable (secrets masked, code loaders flagged), and read-only hints it wants trusted. */
function TrustServer({ server: s }: { server: McpTrustServer }) {
  return (
    <li aria-label={`Server ${s.name}`}>
      <code>{s.name} {s.line}</code>
      {(s.env?.length || s.trustReadOnlyHints) ? (
        <ul className="mcp-trust-env">
          {(s.env ?? []).map((e) => (
            <li key={`${e.header ? "h" : "e"}:${e.name}`} className={e.loadsCode ? "warn" : undefined}>
              <code>{e.header ? `${e.name}: ${e.value}` : `${e.name}=${e.value}`}</code>
              {e.loadsCode && <span className="badge badge-warn"> ⚠ makes the server load code it names</span>}
              {e.secret && <span className="mcp-note"> (a secret: not shown)</span>}
            </li>
          ))}
          {s.trustReadOnlyHints && (
            <li className="warn"><span className="badge badge-warn">⚠ trusts its read-only hints: tools it marks read-only run without asking in safe mode</span></li>
          )}
        </ul>
      ) : null}
    </li>
  );
}
