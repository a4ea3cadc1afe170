import { memo, useMemo } from "react";
import { renderMarkdown } from "../markdown/render";
import { useChatActions } from "./ChatActions";

/** Model text as sanitised markdown. Links open in the system browser. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  const { openURL } = useChatActions();
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
