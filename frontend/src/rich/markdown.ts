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

// Rendered texts, least recently used first: a row of a long transcript is
// rendered again each time it scrolls back into view, and a streamed reply
// once per delta. Bounded by entries and by characters held.
const cache = new Map<string, string>();
const maxEntries = 2000;
const maxChars = 8 << 20;
let held = 0;

/** Sanitised HTML for markdown text. */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const html = purifier.sanitize(marked.parse(text) as string, config) as string;
  if (text.length + html.length <= maxChars / 8) {
    cache.set(text, html);
    held += text.length + html.length;
    for (const [k, v] of cache) {
      if (cache.size <= maxEntries && held <= maxChars) break;
      cache.delete(k);
      held -= k.length + v.length;
    }
  }
  return html;
}
