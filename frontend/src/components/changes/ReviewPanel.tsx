import { useEffect, useRef, useState } from "react";
import type { ReviewBackend, ReviewFinding, ReviewReport, ReviewTarget } from "../../bridge/review";
import { DiffView } from "../DiffView";

/** A finding as a message: what Fix sends the session's agent and Copy copies (review.Finding.Text in Go). */
export function findingText(f: ReviewFinding): string {
  const where = f.endLine > f.startLine ? `${f.file}:${f.startLine}-${f.endLine}` : `${f.file}:${f.startLine}`;
  let s = `[${f.severity}] ${where}: ${f.title}\n\n${f.explanation.trim()}\n`;
  if (f.hunkHeader) s += `\nIn the hunk ${f.hunkHeader}.\n`;
  if (f.suggestion) s += `\nSuggested change for those lines:\n\`\`\`\n${f.suggestion.replace(/\n+$/, "")}\n\`\`\`\n`;
  return s;
}

export const fixMessage = (f: ReviewFinding) => `Fix this finding of a code review:\n\n${findingText(f)}`;

const kinds: { kind: string; label: string }[] = [
  { kind: "uncommitted", label: "Uncommitted changes" },
  { kind: "staged", label: "Staged changes" },
  { kind: "base", label: "This branch against…" },
  { kind: "commit", label: "A commit…" },
];

/**
 * Review with the model: choose what to review, run the reviewer, and see its
 * findings as comments on their hunks in the diff (each file folds) with the
 * findings listed beside it. Each finding: Fix (sends it, with its anchor, to
 * the session's agent through the one submit), Dismiss, Copy. n / p (or the
 * buttons) move to the next / previous finding. A finding whose lines
 * changed since is marked outdated (checked again whenever refresh changes).
 */
export function ReviewPanel({ review, fix, refresh, initial }: {
  review: ReviewBackend;
  fix: (text: string) => Promise<unknown>;
  refresh: unknown;
  /** What to review, reviewed at once (a turn's Review…); absent: the user chooses, then Review. */
  initial?: ReviewTarget;
}) {
  const [target, setTarget] = useState<ReviewTarget>(initial ?? { kind: "uncommitted" });
  const [report, setReport] = useState<ReviewReport | null>(null);
  const [findings, setFindings] = useState<ReviewFinding[]>([]);
  const [dismissed, setDismissed] = useState<Set<string>>(new Set());
  const [running, setRunning] = useState(false);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const [at, setAt] = useState(-1);
  const items = useRef(new Map<string, HTMLElement>());

  const shown = findings.filter((f) => !dismissed.has(f.id));
  useEffect(() => {
    if (findings.length === 0) return;
    let live = true;
    review.refresh(findings).then((f) => live && setFindings(f), () => {});
    return () => { live = false; };
    // Checked again on the workspace's changes only, not on our own update.
  }, [refresh]);

  const run = async () => {
    setRunning(true);
    setError("");
    setNote("");
    try {
      const r = await review.run(target);
      setReport(r);
      setFindings(r.findings ?? []);
      setDismissed(new Set());
      setAt(-1);
    } catch (e) {
      setError(String(e));
    } finally {
      setRunning(false);
    }
  };
  useEffect(() => {
    if (initial) void run();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const choices = target.kind === "turn" || initial?.kind === "turn" ? [...kinds, { kind: "turn", label: "This turn's changes" }] : kinds;
  const go = (d: number) => {
    if (shown.length === 0) return;
    const i = (at + d + shown.length) % shown.length;
    setAt(i);
    items.current.get(shown[i].id)?.focus();
  };
  const onKey = (e: React.KeyboardEvent) => {
    if ((e.target as HTMLElement).tagName === "INPUT" || (e.target as HTMLElement).tagName === "SELECT") return;
    if (e.key === "n" || e.key === "j") { e.preventDefault(); go(1); }
    if (e.key === "p" || e.key === "k") { e.preventDefault(); go(-1); }
  };
  const actions = (f: ReviewFinding) => (
    <span className="review-actions">
      <button type="button" className="secondary" aria-label={`Fix: ${f.title}`} onClick={() => fix(fixMessage(f)).then(
        () => setNote(`Sent “${f.title}” to the agent.`), (e) => setError(String(e)))}>Fix</button>
      <button type="button" className="secondary" aria-label={`Dismiss: ${f.title}`}
        onClick={() => setDismissed((s) => new Set(s).add(f.id))}>Dismiss</button>
      <button type="button" className="secondary" aria-label={`Copy: ${f.title}`}
        onClick={() => void navigator.clipboard?.writeText(findingText(f)).then(() => setNote("Copied."), () => {})}>Copy</button>
    </span>
  );
  const comment = (f: ReviewFinding) => (
    <div key={f.id} className={`review-comment sev-${f.severity}${f.outdated ? " outdated" : ""}`} role="note" aria-label={`Finding: ${f.title}`}>
      <strong className="review-sev">{f.severity}</strong> <span className="mono">{f.file}:{f.startLine}{f.endLine > f.startLine ? `-${f.endLine}` : ""}</span>{" "}
      <strong>{f.title}</strong>{f.outdated && <span className="badge" title="its lines changed since the review"> outdated</span>}
      <p>{f.explanation}</p>
      {f.suggestion && <pre className="mono review-suggestion">{f.suggestion}</pre>}
      {actions(f)}
    </div>
  );

  return (
    <section className="review" aria-label="Review with the model" onKeyDown={onKey}>
      <div className="review-controls">
        <select aria-label="What to review" value={target.kind} disabled={running}
          onChange={(e) => setTarget(e.target.value === "turn" && initial ? initial
            : { kind: e.target.value, ref: e.target.value === "base" || e.target.value === "commit" ? target.ref ?? "" : undefined })}>
          {choices.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
        </select>
        {(target.kind === "base" || target.kind === "commit") && (
          <input aria-label={target.kind === "base" ? "Base branch" : "Commit"} placeholder={target.kind === "base" ? "main" : "HEAD"}
            value={target.ref ?? ""} onChange={(e) => setTarget({ ...target, ref: e.target.value })} />
        )}
        <button type="button" onClick={() => void run()} disabled={running || ((target.kind === "base" || target.kind === "commit") && !target.ref)}>
          {running ? "Reviewing…" : "Review"}
        </button>
        {report && shown.length > 0 && (
          <>
            <button type="button" className="secondary" onClick={() => go(-1)} aria-label="Previous finding">↑</button>
            <button type="button" className="secondary" onClick={() => go(1)} aria-label="Next finding">↓</button>
          </>
        )}
      </div>
      {error && <p role="alert" className="changes-error">{error}</p>}
      {note && <p role="status" className="changes-note">{note}</p>}
      {report && (
        <div className="review-body">
          <div className="review-diff">
            {(report.files ?? []).map((file) => {
              const mine = shown.filter((f) => f.file === file.path);
              return (
                <details key={file.path} className="review-file" open={mine.length > 0}>
                  <summary><span className="mono">{file.path}</span> {mine.length > 0 && <span className="badge">{mine.length}</span>}</summary>
                  <DiffView diff={file.diff} name={file.path} language={file.path} hunkControl={(block) => {
                    const h = (file.hunks ?? [])[block];
                    const here = h ? mine.filter((f) => f.hunkId === h.id) : [];
                    return here.length > 0 ? <span className="review-comments">{here.map(comment)}</span> : null;
                  }} />
                  {mine.filter((f) => !f.hunkId).map(comment)}
                </details>
              );
            })}
          </div>
          <aside className="review-list" aria-label="Findings">
            <h3>Findings ({shown.length})</h3>
            {report.summary && <p className="settings-note">{report.summary}</p>}
            <ol>
              {shown.map((f, i) => (
                <li key={f.id} tabIndex={-1} ref={(el) => { if (el) items.current.set(f.id, el); else items.current.delete(f.id); }}
                  className={`${i === at ? "current " : ""}sev-${f.severity}${f.outdated ? " outdated" : ""}`} aria-label={`${f.severity}: ${f.title}`}>
                  <strong>{f.severity}</strong> <span className="mono">{f.file}:{f.startLine}</span> {f.title}
                  {f.outdated && <span className="badge"> outdated</span>}
                  {actions(f)}
                </li>
              ))}
            </ol>
          </aside>
        </div>
      )}
    </section>
  );
}
