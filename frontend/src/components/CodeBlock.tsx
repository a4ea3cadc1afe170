import { memo, useMemo } from "react";
import { highlight, languageFor, useRich } from "../rich";

/** Highlighted code; language is a fence name or a file path. */
export const CodeBlock = memo(function CodeBlock({ code, language, label }: { code: string; language?: string; label?: string }) {
  const rich = useRich();
  const html = useMemo(() => highlight(code, languageFor(language)), [code, language, rich]);
  return (
    <pre className="code-block" aria-label={label}>
      <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
});
