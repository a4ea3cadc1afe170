import type { ApprovalDiagnosticsPayload, Diagnostic, FilePreview } from "../bridge";
import type { Ticks } from "../approval/decision";
import "./ApprovalDiagnostics.css";

/** The hunk of f whose new lines hold line ("" for none, or a whole-file write). */
export function hunkOf(f: FilePreview | undefined, line: number): string {
  for (const h of f?.hunks ?? []) {
    if (line >= h.newStart && line < h.newStart + Math.max(h.newLines, 1)) return h.id;
  }
  return "";
}

/**
 * What the chosen part of a proposal introduces, file by file: the
 * diagnostics on lines of ticked hunks (and outside every hunk), so
 * unticking the hunk that breaks the build clears its errors.
 */
export function chosenDiagnostics(d: ApprovalDiagnosticsPayload, files: readonly FilePreview[], partial: boolean, ticks: Ticks) {
  return (d.files ?? []).map((fd) => {
    const f = files.find((x) => x.path === fd.path);
    const kept = (fd.introduced ?? []).filter((x: Diagnostic) => {
      if (!partial) return true;
      const h = hunkOf(f, x.line);
      return h === "" ? ticks.has(fd.path) || (f?.hunks ?? []).some((k) => ticks.has(k.id)) : ticks.has(h);
    });
    const byHunk = new Map<string, number>();
    for (const x of kept) {
      if (x.severity !== "error") continue;
      const h = hunkOf(f, x.line);
      byHunk.set(h, (byHunk.get(h) ?? 0) + 1);
    }
    return { path: fd.path, kept, errors: kept.filter((x) => x.severity === "error").length, byHunk };
  });
}

const errors = (n: number) => (n === 1 ? "1 error" : `${n} errors`);

/**
 * The language servers' word on a waiting proposal, beside its diff:
 * "checking…" while they work (the dialog never waits for them), then per
 * file and per hunk "introduces N errors" with each problem's line, or why
 * they could not say (a timeout).
 */
export function ApprovalDiagnostics({ diagnostics, files, partial, ticks }: {
  diagnostics?: ApprovalDiagnosticsPayload;
  files: readonly FilePreview[];
  partial: boolean;
  ticks: Ticks;
}) {
  if (!diagnostics) return null;
  if (diagnostics.state === "checking") {
    return <p className="approval-diagnostics checking" role="status">Language servers: checking…</p>;
  }
  if (diagnostics.state !== "done") {
    return <p className="approval-diagnostics failed" role="status">Language servers: {diagnostics.note}</p>;
  }
  const chosen = chosenDiagnostics(diagnostics, files, partial, ticks).filter((c) => c.kept.length > 0);
  if (chosen.length === 0) {
    return <p className="approval-diagnostics clean" role="status">Language servers: introduces no errors</p>;
  }
  return (
    <section className="approval-diagnostics" aria-label="What this change introduces" role="status">
      {chosen.map((c) => (
        <div key={c.path} className="approval-diagnostics-file">
          <p>
            <span className="mono">{c.path}</span>: {c.errors > 0 ? <strong className="diag-error">introduces {errors(c.errors)}</strong> : "introduces warnings"}
            {[...c.byHunk].filter(([h]) => h !== "").map(([h, n]) => (
              <span key={h} className="approval-diagnostics-hunk" data-hunk={h}> · hunk {h.slice(h.lastIndexOf("#") + 1)}: introduces {errors(n)}</span>
            ))}
          </p>
          <ul>
            {c.kept.slice(0, 20).map((x, i) => (
              <li key={i} className={`mono diag-${x.severity}`}>{x.line}:{x.col} {x.severity} {x.message}</li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
