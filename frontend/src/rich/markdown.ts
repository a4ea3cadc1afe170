// Markdown to sanitised HTML: marked parses (GitHub flavour), code blocks go
// through the shared highlighter, and DOMPurify removes anything that could
// run script or load content. Model text is untrusted input.
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { escapeHTML } from "./index";
import { highlight, languageFor } from "./highlight";

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    code({ text, lang }) {
      const name = (lang ?? "").trim().split(/\s+/)[0];
      const known = languageFor(name);
      const cls = known ? ` class="hljs language-${escapeHTML(known)}"` : ` class="hljs"`;
      return `<pre><code${cls}>${highlight(text, known)}</code></pre>\n`;
    },
  },
});

const purifier = DOMPurify();
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    const href = node.getAttribute("href") ?? "";
    if (!/^https?:\/\//i.test(href)) node.removeAttribute("href");
    node.setAttribute("rel", "noreferrer noopener");
  }
});

const config = {
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "img", "video", "audio"],
  FORBID_ATTR: ["style"],
};

/** Sanitised HTML for markdown text. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return purifier.sanitize(html, config) as string;
}
