import { useEffect, useRef, useState } from "react";
import type { ApprovalDiagnosticsPayload, Diagnostic, Preview, ProposalSelection } from "../bridge";
import { approveTicked, type Ticks } from "../approval/decision";
import "./ApprovalDiagnostics.css";

/**
 * The part of a preview the ticks choose, as RecheckApproval takes it:
 * empty lists for all of it, null when nothing is ticked.
 */
export function tickedSelection(p: Preview, ticks: Ticks): ProposalSelection | null {
  const d = approveTicked(p, ticks);
  if (!d) return null;
  return { files: d.files ?? [], hunks: d.hunks ?? [] };
}

/** One string per selection; the whole change (no selection) is "|". */
export function selectionKey(s?: ProposalSelection | null): string {
  return s ? `${[...(s.files ?? [])].sort().join(",")}|${[...(s.hunks ?? [])].sort().join(",")}` : "|";
}

/**
 * The servers' outcome when it is for what is ticked now (undefined while
 * a check of the ticked part is still to come, or nothing is ticked).
 */
export function currentDiagnostics(d: ApprovalDiagnosticsPayload | undefined, p: Preview, ticks: Ticks) {
  const want = tickedSelection(p, ticks);
  if (!d || !want || selectionKey(d.selection) !== selectionKey(want)) return undefined;
  return d;
}

/**
 * The diff's marks of one file: its introduced problems by their line in
 * the new side of the dialog's diff (lines the diff does not show have none).
 */
export function diagnosticMarks(d: ApprovalDiagnosticsPayload | undefined, path: string): Map<number, Diagnostic[]> {
  const out = new Map<number, Diagnostic[]>();
  if (d?.state !== "done") return out;
  for (const x of d.files?.find((f) => f.path === path)?.introduced ?? []) {
    const line = x.shownLine ?? x.line;
    if (!line) continue;
    out.set(line, [...(out.get(line) ?? []), x]);
  }
  return out;
}

const errors = (n: number) => (n === 1 ? "1 error" : `${n} errors`);

/**
 * The language servers' word on a waiting proposal, beside its diff:
 * "checking…" while they work (the dialog never waits for them), then per
 * file and per hunk "introduces N errors" with each problem's line (where
 * it would be in the file as written), or why they could not say (a
 * timeout). Ticking other hunks asks the servers to check that part
 * (onRecheck, once the ticks settle); until its outcome comes, it says
 * "checking…" again.
 */
export function ApprovalDiagnostics({ diagnostics, preview, ticks, onRecheck }: {
  diagnostics?: ApprovalDiagnosticsPayload;
  preview: Preview;
  ticks: Ticks;
  onRecheck?: (sel: ProposalSelection) => Promise<void>;
}) {
  const want = tickedSelection(preview, ticks);
  const wantKey = want && selectionKey(want);
  // The backend checks the whole change on its own when the dialog opens.
  const asked = useRef(selectionKey(diagnostics?.selection));
  const [failed, setFailed] = useState("");
  const present = !!diagnostics;
  useEffect(() => {
    if (!present || !onRecheck || !want || wantKey === asked.current) return;
    const t = setTimeout(() => {
      asked.current = wantKey!;
      setFailed("");
      onRecheck(want).catch((e) => setFailed(String(e)));
    }, 120);
    return () => clearTimeout(t);
  }, [wantKey, present, onRecheck]); // want is what wantKey names
  if (!diagnostics || !want) return null;
  if (failed) {
    return <p className="approval-diagnostics failed" role="status">Language servers: could not check this choice: {failed}</p>;
  }
  const d = currentDiagnostics(diagnostics, preview, ticks);
  if (!d || d.state === "checking") {
    return <p className="approval-diagnostics checking" role="status">Language servers: checking…</p>;
  }
  if (d.state !== "done") {
    return <p className="approval-diagnostics failed" role="status">Language servers: {d.note}</p>;
  }
  const chosen = (d.files ?? []).filter((f) => (f.introduced ?? []).length > 0);
  if (chosen.length === 0) {
    return <p className="approval-diagnostics clean" role="status">Language servers: introduces no errors</p>;
  }
  return (
    <section className="approval-diagnostics" aria-label="What this change introduces" role="status">
      {chosen.map((f) => {
        const introduced = f.introduced ?? [];
        const n = introduced.filter((x) => x.severity === "error").length;
        const byHunk = Object.entries(f.hunks ?? {}).filter(([h, k]) => h !== "" && k > 0).sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }));
        return (
          <div key={f.path} className="approval-diagnostics-file">
            <p>
              <span className="mono">{f.path}</span>: {n > 0 ? <strong className="diag-error">introduces {errors(n)}</strong> : "introduces warnings"}
              {byHunk.map(([h, k]) => (
                <span key={h} className="approval-diagnostics-hunk" data-hunk={h}> · hunk {h.slice(h.lastIndexOf("#") + 1)}: introduces {errors(k)}</span>
              ))}
            </p>
            <ul>
              {introduced.slice(0, 20).map((x, i) => (
                <li key={i} className={`mono diag-${x.severity}`}>{x.line}:{x.col} {x.severity} {x.message}</li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
