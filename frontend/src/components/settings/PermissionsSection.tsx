import { useCallback, useEffect, useState } from "react";
import type { AuditEntry, PolicyDecided, PolicyView } from "../../bridge/policy";
import type { SectionProps } from "./sections";
import { PolicyRuleForm } from "./PolicyRuleForm";

/**
 * Settings → Permissions: the standing policy (every rule with its layer,
 * file and uses; delete; test a command against the whole policy) and the
 * audit log of calls decided without a person.
 */
export function PermissionsSection({ deps }: SectionProps) {
  const api = deps.policy;
  const [view, setView] = useState<PolicyView | null>(null);
  const [error, setError] = useState("");
  const [tool, setTool] = useState("bash");
  const [line, setLine] = useState("");
  const [decided, setDecided] = useState<PolicyDecided | null>(null);
  const [audit, setAudit] = useState<AuditEntry[]>([]);
  const [text, setText] = useState("");
  // The rule being edited (its layer and id), or "new" for the add form.
  const [editing, setEditing] = useState("");
  const mine = view?.rules ?? [];
  const saved = (v: PolicyView) => { setView(v); setDecided(null); setEditing(""); };

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
          <button type="button" className="secondary" onClick={reload} title="Read the policy files again (after an edit outside Gatehouse)">Reload</button>
          {mine.length === 0 && <p className="settings-note">No standing rules of yours yet: “Always allow…” in the dialog saves one.</p>}
          <ul className="policy-rules">
            {mine.map((r) => (
              <li key={r.layer + r.id} aria-label={`rule ${r.id}`}>
                <span className={`policy-decision decision-${r.decision}`}>{r.decision}</span> <code>{r.summary}</code>
                {r.reason && <> — {r.reason}</>}
                <div className="settings-note">
                  {r.id} · {r.layer} policy · {r.file}{r.line ? `:${r.line}` : ""} · decided {r.uses.count} time{r.uses.count === 1 ? "" : "s"}
                  {r.uses.count > 0 && <>, last {new Date(r.uses.last).toLocaleString()}</>}
                </div>
                {(r.layer === "user" || r.layer === "workspace") && (
                  <>
                    <button type="button" className="secondary" aria-label={`Edit rule ${r.id}`} onClick={() => setEditing(r.layer + r.id)}>Edit</button>{" "}
                    <button type="button" className="secondary" aria-label={`Delete rule ${r.id}`}
                      onClick={() => api!.remove(r.id ?? "").then(saved, (e) => setError(String(e)))}>Delete</button>
                  </>
                )}
                {editing === r.layer + r.id && (
                  <PolicyRuleForm label={`Edit rule ${r.id}`} start={r.written} onCancel={() => setEditing("")}
                    onSave={(w) => api!.edit(r.id ?? "", w).then(saved)} />
                )}
              </li>
            ))}
          </ul>
          <details className="policy-builtin">
            <summary>What safe runs unasked and plan mode offers</summary>
            <p className="settings-note" role="note" aria-label="What only reads">
              Every call is planned: the paths it reads and changes, the commands it runs. A call whose plan only reads (read_file,
              view_image, list_dir, glob, grep; bash status, logs and list; the checklist, a question to you, a plan to approve) runs
              unasked in safe and is offered in plan mode. Where a tool cannot say what it reads, its plan stands in: an MCP tool
              reads only when its server says so and you trust that server's read-only hints; a subagent only when its agent can only
              read; web_fetch by its domain (outside the allow list it asks). A plan that changes a file or runs a command asks in
              safe and is refused in plan mode, whatever its tool claims. Your deny and ask rules hold in every mode.
            </p>
          </details>
          {editing === "new" ? (
            <PolicyRuleForm label="New rule" scoped start={{ decision: "allow", tool: "bash" }} onCancel={() => setEditing("")}
              onSave={(w, scope) => api!.add(w, scope).then(saved)} />
          ) : (
            <button type="button" className="secondary" onClick={() => setEditing("new")}>Add a rule…</button>
          )}
          {(view.errors ?? []).map((e) => (
            <p key={e.file + e.line} className="settings-error" role="alert">Not loaded: {e.file}{e.line ? `:${e.line}` : ""}: {e.message}</p>
          ))}
          {view.untrusted && (
            <div role="group" aria-label="Workspace policy waiting for trust">
              <p className="settings-note">{view.untrusted} is not read until you trust it. It can only ask or deny: a file that allows is refused whole.</p>
              <pre>{view.untrustedText}</pre>
              <button type="button" className="secondary" onClick={() => api!.trustFile(view.untrustedHash ?? "").then(saved, (e) => setError(String(e)))}>Trust this file</button>
            </div>
          )}
          <p className="settings-note">Saved in {view.workspaceFile ?? "—"} (this workspace) and {view.userFile} (everywhere).</p>
        </section>
      )}
      {api && (
        <section aria-label="Test a command">
          <h3>Test a command</h3>
          <form onSubmit={(e) => { e.preventDefault(); api.check(tool.trim() || "bash", line).then(setDecided, (err) => setError(String(err))); }}>
            <input type="text" aria-label="Tool to test" value={tool} onChange={(e) => setTool(e.target.value)} placeholder="bash" size={14} />
            <input type="text" aria-label={tool.trim() === "" || tool.trim() === "bash" ? "Command line to test" : tool.trim() === "web_fetch" ? "URL to test" : "Path to test (empty: the tool as a whole)"}
              value={line} onChange={(e) => setLine(e.target.value)} placeholder={tool.trim() === "" || tool.trim() === "bash" ? "npm test && curl x" : tool.trim() === "web_fetch" ? "https://example.com/docs" : "src/main.go"} />
            <button type="submit" className="secondary">Test</button>
          </form>
          {decided && <p role="status"><strong>{decided.decision || "no rule"}</strong>: {decided.why}</p>}
          {decided && (decided.routes ?? []).length > 0 && (
            <ul aria-label="Every route">
              {(decided.routes ?? []).map((r) => <li key={r.route}>{r.route}: <strong>{r.decision || "no rule"}</strong>: {r.why}</li>)}
              {(decided.staysOpen ?? []).map((o) => <li key={o}>stays open: {o}</li>)}
            </ul>
          )}
          {decided && (decided.sandbox ?? []).map((n) => <p key={n} className="settings-note">sandbox: {n}</p>)}
        </section>
      )}
      {api && (
        <section aria-label="Audit log">
          <h3>Audit log</h3>
          <p className="settings-note">Every call that ran or was refused without asking you: by the mode, a session rule or a standing rule; and what your policy hid from a call or refused as it ran.</p>
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
                  <td>{e.by === "policy" ? `${e.decision} by ${(e.standing ?? []).map((r) => `${r.id} (${r.layer})`).join(", ") || "your policy"}${e.refused ? `: ${e.refused}` : ""}` : e.by === "rule" ? `session rule ${(e.ruleIds ?? []).join(", ")}` : "the mode"}</td>
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
