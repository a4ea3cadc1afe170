import { useId, useState } from "react";
import type { Diagnostic } from "../bridge";

const symbol = (s: string) => (s === "error" ? "●" : s === "warning" ? "▲" : "◆");
const rank = (s: string) => ({ error: 0, warning: 1, info: 2, hint: 3 })[s] ?? 4;

/**
 * A diff line's mark for the language servers' problems on it: a symbol by
 * severity (never colour alone) that names them to a screen reader and
 * shows their messages while hovered or focused.
 */
export function DiffMark({ line, diags }: { line: number; diags: readonly Diagnostic[] }) {
  const [open, setOpen] = useState(false);
  const tip = useId();
  const worst = [...diags].sort((a, b) => rank(a.severity) - rank(b.severity))[0];
  const label = `line ${line}: ${diags.map((d) => `${d.severity} ${d.message}`).join("; ")}`;
  return (
    <span className="diff-diag-wrap">
      <button type="button" className={`diff-diag diag-${worst.severity}`} aria-label={label} aria-describedby={open ? tip : undefined}
        onFocus={() => setOpen(true)} onBlur={() => setOpen(false)} onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
        {symbol(worst.severity)}
      </button>
      {open && (
        <span role="tooltip" id={tip} className="diff-diag-tip">
          {diags.map((d, i) => <span key={i} className={`diag-${d.severity}`}>{d.line}:{d.col} {d.severity} {d.message}</span>)}
        </span>
      )}
    </span>
  );
}
