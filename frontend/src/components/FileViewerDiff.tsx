import { highlight } from "../highlight";

type Kind = "add" | "del" | "ctx" | "hunk" | "meta";

interface Line {
  kind: Kind;
  text: string;
  oldNo?: number;
  newNo?: number;
}

/** Splits a unified diff into lines with their old and new line numbers. */
export function parseUnifiedDiff(diff: string): Line[] {
  const out: Line[] = [];
  let oldNo = 0;
  let newNo = 0;
  const lines = diff.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const l of lines) {
    if (l.startsWith("@@")) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
      if (m) {
        oldNo = Number(m[1]);
        newNo = Number(m[2]);
        if (/^@@ -\d+,0 /.test(l)) oldNo++;
        if (/ \+\d+,0 @@/.test(l)) newNo++;
      }
      out.push({ kind: "hunk", text: l });
    } else if (l.startsWith("--- ") || l.startsWith("+++ ") || l.startsWith("\\")) {
      out.push({ kind: "meta", text: l });
    } else if (l.startsWith("+")) {
      out.push({ kind: "add", text: l.slice(1), newNo: newNo++ });
    } else if (l.startsWith("-")) {
      out.push({ kind: "del", text: l.slice(1), oldNo: oldNo++ });
    } else {
      out.push({ kind: "ctx", text: l.slice(1), oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return out;
}

const marker: Record<Kind, string> = { add: "+", del: "−", ctx: " ", hunk: "", meta: "" };
const spoken: Record<Kind, string> = { add: "added", del: "removed", ctx: "", hunk: "", meta: "" };

/** A unified diff, inline: + / − markers and tinted rows (never colour alone), code highlighted per line. */
export function FileViewerDiff({ diff, language }: { diff: string; language: string | undefined }) {
  const lines = parseUnifiedDiff(diff);
  return (
    <table className="diff" aria-label="Changes since the session started">
      <tbody>
        {lines.map((l, i) =>
          l.kind === "hunk" || l.kind === "meta" ? (
            <tr key={i} className={`diff-${l.kind}`}>
              <td colSpan={4} className="mono">
                {l.text}
              </td>
            </tr>
          ) : (
            <tr key={i} className={`diff-${l.kind}`}>
              <td className="diff-no" aria-hidden="true">
                {l.oldNo ?? ""}
              </td>
              <td className="diff-no" aria-hidden="true">
                {l.newNo ?? ""}
              </td>
              <td className="diff-marker" aria-label={spoken[l.kind] || undefined}>
                {marker[l.kind]}
              </td>
              <td className="diff-code mono" dangerouslySetInnerHTML={{ __html: highlight(l.text, language) || "&nbsp;" }} />
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
