import { memo, useMemo } from "react";
import { highlight, languageFor, useRich } from "../rich";
import { CopyButton } from "./CopyButton";

/**
 * Highlighted code with a copy button; language is a fence name or a file
 * path. With startLine, a gutter numbers the lines from it (the numbers are
 * not copied).
 */
export const CodeBlock = memo(function CodeBlock({ code, language, label, startLine }: {
  code: string; language?: string; label?: string; startLine?: number;
}) {
  const rich = useRich();
  const html = useMemo(() => highlight(code, languageFor(language)), [code, language, rich]);
  const gutter = useMemo(() => {
    if (startLine === undefined) return "";
    const n = code.split("\n").length - (code.endsWith("\n") ? 1 : 0);
    return Array.from({ length: n }, (_, i) => String(startLine + i)).join("\n");
  }, [code, startLine]);
  return (
    <div className="code-wrap">
      <CopyButton text={code} label={label ? `Copy ${label[0].toLowerCase()}${label.slice(1)}` : "Copy code"} />
      <pre className={`code-block${gutter ? " code-numbered" : ""}`} aria-label={label}>
        {gutter && <span className="code-gutter" aria-hidden>{gutter}</span>}
        <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </div>
  );
});
