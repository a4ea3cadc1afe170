import { memo, useMemo } from "react";
import { renderMarkdown, useRich } from "../rich";
import { useChatActions } from "./ChatActions";

/** Model text as sanitised markdown. Links open in the system browser. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const rich = useRich();
  const html = useMemo(() => renderMarkdown(text), [text, rich]);
  const { openURL } = useChatActions();
  if (html === undefined) return <div className="md md-plain">{text}</div>;
  return (
    <div
      className="md"
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(e) => {
        const a = (e.target as HTMLElement).closest("a");
        if (!a) return;
        e.preventDefault();
        const href = a.getAttribute("href");
        if (href) openURL(href);
      }}
    />
  );
});
