import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { Rule } from "../bridge";
import type { ApprovalBackend } from "../bridge/approval";

/**
 * "Rules (N)" beside the approval mode: the session's rules, each with a
 * Revoke button. refreshKey changes when rules may have changed (a request
 * was answered, the session switched).
 */
export function ApprovalRules({ api, refreshKey }: { api: Pick<ApprovalBackend, "listRules" | "revokeRule">; refreshKey: string }) {
  const [rules, setRules] = useState<Rule[]>([]);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const panelId = useId();
  const box = useRef<HTMLDivElement>(null);

  const load = useCallback(() => api.listRules().then((r) => { setRules(r); setError(""); }, (e) => setError(String(e))), [api]);
  useEffect(() => void load(), [load, refreshKey]);
  useEffect(() => {
    if (!open) return;
    void load();
    const away = (e: MouseEvent) => {
      if (box.current && e.target instanceof Node && !box.current.contains(e.target)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open, load]);

  const revoke = (id: string) => api.revokeRule(id).then(load, (e) => setError(`Could not revoke the rule: ${String(e)}`));

  return (
    <div className="rules" ref={box} onKeyDown={(e) => {
      if (e.key === "Escape" && open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
      }
    }}>
      <button type="button" className="rules-button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}
        title="Rules that “Approve for session” created">
        Rules ({rules.length})
      </button>
      {open && (
        <div className="rules-panel" id={panelId} role="dialog" aria-label="Session rules">
          {error && <p className="approval-error" role="alert">{error}</p>}
          {rules.length === 0 ? (
            <p className="rules-empty">No rules yet. “Approve for session” in an approval dialog creates one.</p>
          ) : (
            <ul>
              {rules.map((r) => (
                <li key={r.id ?? r.summary}>
                  <span className="rules-summary">{r.summary}</span>
                  {r.agent && <span className="rules-from">from {r.agent}</span>}
                  {r.id && <button type="button" onClick={() => void revoke(r.id!)} aria-label={`Revoke rule: ${r.summary}`}>Revoke</button>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
