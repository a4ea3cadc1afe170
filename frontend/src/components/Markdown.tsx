import { memo, useLayoutEffect, useMemo, useRef } from "react";
import { renderMarkdown, useRich } from "../rich";
import { useChatActions } from "./ChatActions";

/** Adds a copy button to each code block of rendered markdown (sanitised HTML cannot carry one). */
function addCopyButtons(root: HTMLElement) {
  for (const pre of root.querySelectorAll("pre")) {
    if (pre.querySelector(":scope > .copy-code")) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "copy-button copy-code";
    b.setAttribute("aria-label", "Copy code");
    b.textContent = "Copy";
    pre.prepend(b);
  }
}

/** Model text as sanitised markdown, code blocks with a copy button. Links open in the system browser. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const rich = useRich();
  const html = useMemo(() => renderMarkdown(text), [text, rich]);
  const { openURL, copy } = useChatActions();
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current && html !== undefined) addCopyButtons(ref.current);
  }, [html]);
  if (html === undefined) return <div className="md md-plain">{text}</div>;
  return (
    <div
      ref={ref}
      className="md"
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(e) => {
        const target = e.target as HTMLElement;
        const button = target.closest("button.copy-code");
        if (button) {
          const code = button.parentElement?.querySelector("code")?.textContent ?? "";
          copy(code).then(
            () => (button.textContent = "Copied"),
            () => (button.textContent = "Copy failed"),
          );
          return;
        }
        const a = target.closest("a");
        if (!a) return;
        e.preventDefault();
        const href = a.getAttribute("href");
        if (href) openURL(href);
      }}
    />
  );
});
