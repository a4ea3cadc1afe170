import { useCallback, useEffect, useState } from "react";
import type { AuditEntry, PolicyDecided, PolicyView } from "../../bridge/policy";
import type { SectionProps } from "./sections";

/**
 * Settings → Permissions: the standing policy (every rule with its layer,
 * file and uses; delete; test a command against the whole policy) and the
 * audit log of calls decided without a person.
 */
export function PermissionsSection({ deps }: SectionProps) {
  const api = deps.policy;
  const [view, setView] = useState<PolicyView | null>(null);
  const [error, setError] = useState("");
  const [line, setLine] = useState("");
  const [decided, setDecided] = useState<PolicyDecided | null>(null);
  const [audit, setAudit] = useState<AuditEntry[]>([]);
  const [text, setText] = useState("");

  const reload = useCallback(() => {
    if (!api) return;
    api.list().then(setView, (e) => setError(String(e)));
    api.audit({ text }).then(setAudit, (e) => setError(String(e)));
  }, [api, text]);
  useEffect(reload, [reload]);

  return (
    <div className="settings-info">
      <p>
        The approval mode is in the header: <strong>manual</strong> asks before every call, <strong>safe</strong> lets reading
        run, <strong>auto</strong> asks nothing. Standing rules hold in every mode: <strong>deny</strong> beats{" "}
        <strong>ask</strong> beats <strong>allow</strong>, whatever file they are in. “Approve for session” rules are under{" "}
        <strong>Rules</strong> in the header.
      </p>
      {!api && <p className="settings-note">Standing rules are not available here.</p>}
      {error && <p className="settings-error" role="alert">{error}</p>}
      {view && (
        <section aria-label="Standing rules">
          <h3>Standing rules</h3>
          {(view.rules ?? []).length === 0 && <p className="settings-note">No standing rules yet: “Always allow…” in the dialog saves one.</p>}
          <ul className="policy-rules">
            {(view.rules ?? []).map((r) => (
              <li key={r.layer + r.id} aria-label={`rule ${r.id}`}>
                <span className={`policy-decision decision-${r.decision}`}>{r.decision}</span> <code>{r.summary}</code>
                {r.reason && <> — {r.reason}</>}
                <div className="settings-note">
                  {r.id} · {r.layer} policy · {r.file}{r.line ? `:${r.line}` : ""} · decided {r.uses.count} time{r.uses.count === 1 ? "" : "s"}
                  {r.uses.count > 0 && <>, last {new Date(r.uses.last).toLocaleString()}</>}
                </div>
                {r.layer !== "project" && (
                  <button type="button" className="secondary" aria-label={`Delete rule ${r.id}`}
                    onClick={() => api!.remove(r.id ?? "").then((v) => { setView(v); setDecided(null); }, (e) => setError(String(e)))}>Delete</button>
                )}
              </li>
            ))}
          </ul>
          {(view.errors ?? []).map((e) => (
            <p key={e.file + e.line} className="settings-error" role="alert">Not loaded: {e.file}{e.line ? `:${e.line}` : ""}: {e.message}</p>
          ))}
          {view.untrusted && <p className="settings-note">{view.untrusted} is not read until you trust this folder.</p>}
          <p className="settings-note">Saved in {view.workspaceFile ?? "—"} (this workspace) and {view.userFile} (everywhere).</p>
        </section>
      )}
      {api && (
        <section aria-label="Test a command">
          <h3>Test a command</h3>
          <form onSubmit={(e) => { e.preventDefault(); api.check(line).then(setDecided, (err) => setError(String(err))); }}>
            <input type="text" aria-label="Command line to test" value={line} onChange={(e) => setLine(e.target.value)} placeholder="npm test && curl x" />
            <button type="submit" className="secondary">Test</button>
          </form>
          {decided && <p role="status"><strong>{decided.decision || "no rule"}</strong>: {decided.why}</p>}
        </section>
      )}
      {api && (
        <section aria-label="Audit log">
          <h3>Audit log</h3>
          <p className="settings-note">Every call that ran or was refused without asking you: by the mode, a session rule or a standing rule.</p>
          <input type="search" aria-label="Filter the audit log" value={text} onChange={(e) => setText(e.target.value)} placeholder="filter" />
          <button type="button" className="secondary" onClick={() => api.exportAudit({ text }).then((s) => {
            const url = URL.createObjectURL(new Blob([s], { type: "application/jsonl" }));
            const a = document.createElement("a");
            a.href = url; a.download = "gatehouse-audit.jsonl"; a.click(); URL.revokeObjectURL(url);
          }, (e) => setError(String(e)))}>Export JSON Lines</button>
          <table className="policy-audit">
            <thead><tr><th>Time</th><th>Call</th><th>Decided by</th><th>Mode</th></tr></thead>
            <tbody>
              {audit.slice().reverse().map((e, i) => (
                <tr key={e.session + e.callId + i}>
                  <td>{new Date(e.time).toLocaleString()}</td>
                  <td><code>{e.summary ?? e.tool}</code></td>
                  <td>{e.by === "policy" ? `${e.decision} by ${(e.standing ?? []).map((r) => `${r.id} (${r.layer})`).join(", ")}` : e.by === "rule" ? `session rule ${(e.ruleIds ?? []).join(", ")}` : "the mode"}</td>
                  <td>{e.mode}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
