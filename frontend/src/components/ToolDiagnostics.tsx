import type { Diagnostic, TranscriptItem } from "../bridge";

/** What the language servers said of an applied edit: the result's diagnosticsDiff. */
export interface EditDiagnostics {
  introduced: Diagnostic[];
  fixed: Diagnostic[];
  problems: string[];
}

const list = <T,>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/** The diagnostics an applied edit introduced or fixed (null: the servers said nothing). */
export function editDiagnostics(it: TranscriptItem): EditDiagnostics | null {
  if (it.running || it.isError || !it.result || typeof it.result !== "object") return null;
  const d = (it.result as Record<string, unknown>).diagnosticsDiff;
  if (!d || typeof d !== "object") return null;
  const r = d as Record<string, unknown>;
  const out = { introduced: list<Diagnostic>(r.introduced), fixed: list<Diagnostic>(r.fixed), problems: list<string>(r.problems) };
  return out.introduced.length || out.fixed.length || out.problems.length ? out : null;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** "introduces 1 error, 1 warning; fixes 2 problems". */
export function diagnosticsSummary(d: EditDiagnostics): string {
  const errors = d.introduced.filter((x) => x.severity === "error").length;
  const others = d.introduced.length - errors;
  const parts: string[] = [];
  if (errors || others) parts.push(`introduces ${[errors && count(errors, "error"), others && count(others, "other problem")].filter(Boolean).join(", ")}`);
  if (d.fixed.length) parts.push(`fixes ${count(d.fixed.length, "problem")}`);
  if (!parts.length) parts.push("could not compare");
  return parts.join("; ");
}

/**
 * The card's line on what an applied edit broke or fixed, readable without
 * unfolding the card: the count in words, then each new problem as
 * path:line:col severity message (a few; all when the card is open).
 */
export function ToolDiagnostics({ item, open }: { item: TranscriptItem; open: boolean }) {
  const d = editDiagnostics(item);
  if (!d) return null;
  const errors = d.introduced.some((x) => x.severity === "error");
  const shown = open ? d.introduced : d.introduced.slice(0, 3);
  return (
    <div className={`tool-diagnostics${errors ? " has-errors" : ""}`} role="note" aria-label="Language servers">
      <span>{errors ? "⚠ " : ""}Language servers: {diagnosticsSummary(d)}</span>
      {shown.length > 0 && (
        <ul>
          {shown.map((x, i) => <li key={i} className={`mono diag-${x.severity}`}>{x.path}:{x.line}:{x.col} {x.severity} {x.message}</li>)}
          {shown.length < d.introduced.length && <li>… and {d.introduced.length - shown.length} more</li>}
        </ul>
      )}
      {open && d.fixed.map((x, i) => <p key={`f${i}`} className="mono diag-fixed">fixed: {x.path}:{x.line}:{x.col} {x.message}</p>)}
      {open && d.problems.map((p, i) => <p key={`p${i}`}>Incomplete: {p}</p>)}
    </div>
  );
}
