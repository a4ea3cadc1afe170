import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { Rule } from "../bridge";
import type { ApprovalBackend } from "../bridge/approval";

/**
 * "Rules (N)" beside the approval mode: the session's rules, each with a
 * Revoke button. refreshKey changes when rules may have changed (a request
 * was answered, the session switched).
 */
export function ApprovalRules({ api, refreshKey, focus }: {
  api: Pick<ApprovalBackend, "listRules" | "revokeRule">; refreshKey: string;
  /** Opens the panel at this rule (a tool card's "ran under your rule" link); n changes on every ask. */
  focus?: { id: string; n: number };
}) {
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

  // Open at the asked rule: marked, scrolled to and focused once the list has it.
  const [marked, setMarked] = useState("");
  useEffect(() => {
    if (!focus) return;
    setOpen(true);
    setMarked(focus.id);
  }, [focus]);
  useEffect(() => {
    if (!open || !marked) return;
    const li = [...(box.current?.querySelectorAll<HTMLElement>("[data-rule-id]") ?? [])].find((e) => e.dataset.ruleId === marked);
    li?.scrollIntoView?.({ block: "nearest" });
    li?.focus();
  }, [open, marked, rules]);

  const revoke = (id: string) => api.revokeRule(id).then(load, (e) => setError(`Could not revoke the rule: ${String(e)}`));

  return (
    <div className="rules" ref={box} onKeyDown={(e) => {
      if (e.key === "Escape" && open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
      }
    }}>
      <button type="button" className="rules-button" aria-expanded={open} aria-controls={panelId} onClick={() => { setMarked(""); setOpen(!open); }}
        title="Rules that “Approve for session” created">
        Rules ({rules.length})
      </button>
      {open && (
        <div className="rules-panel" id={panelId} role="dialog" aria-label="Session rules">
          {error && <p className="approval-error" role="alert">{error}</p>}
          {marked && rules.length > 0 && !rules.some((r) => r.id === marked) && <p className="rules-empty">That rule was revoked.</p>}
          {rules.length === 0 ? (
            <p className="rules-empty">No rules yet. “Approve for session” in an approval dialog creates one.</p>
          ) : (
            <ul>
              {rules.map((r) => (
                <li key={r.id ?? r.summary} data-rule-id={r.id} tabIndex={-1}
                  className={r.id === marked ? "rules-marked" : undefined} aria-current={r.id === marked ? true : undefined}>
                  <div className="rules-text">
                    <span className="rules-summary">{r.summary}</span>
                    {r.agent && <span className="rules-from">from {r.agent}</span>}
                    {r.domain && (
                      <span className="rules-scope">any URL on <code className="mono">{r.domain}</code> exactly, not its subdomains</span>
                    )}
                    {r.commands && r.commands.length > 0 && (
                      <span className="rules-scope">
                        exactly {r.commands.map((c, i) => <span key={i}>{i > 0 && ", "}<code className="mono">{c.join(" ")}</code></span>)}
                        {` · ${r.action ?? ""} · in `}<span className="mono">{r.cwd}</span>
                      </span>
                    )}
                  </div>
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
