import { memo } from "react";

/**
 * The app's one diff view: a unified diff with +/− markers and background
 * tints (never colour alone). The tool cards use it now; the approval
 * dialog and the file viewer will too.
 */
export const DiffView = memo(function DiffView({ diff, label }: { diff: string; label?: string }) {
  const lines = diff.replace(/\n$/, "").split("\n");
  return (
    <div className="diff" role="group" aria-label={label ? `Diff of ${label}` : "Diff"}>
      {label && <div className="diff-file mono">{label}</div>}
      <pre className="diff-body">
        {lines.map((l, i) => {
          const kind = l.startsWith("@@") ? "hunk" : l.startsWith("+++") || l.startsWith("---") ? "meta"
            : l.startsWith("+") ? "add" : l.startsWith("-") ? "del" : "ctx";
          return (
            <div key={i} className={`diff-line diff-${kind}`}>
              {l || " "}
            </div>
          );
        })}
      </pre>
    </div>
  );
});
