// The one syntax highlighter of the UI (DESIGN.md: one highlighter shared by
// tool cards, the approval dialog and the file viewer). highlight.js core with
// the languages a workspace usually holds; output is escaped HTML with
// hljs-* classes, styled in files.css.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const languages = { bash, c, cpp, css, diff, go, java, javascript, json, makefile, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);

const byExtension: Record<string, string> = {
  sh: "bash", bash: "bash", zsh: "bash", c: "c", h: "c", cc: "cpp", cpp: "cpp", hpp: "cpp", css: "css",
  diff: "diff", patch: "diff", go: "go", java: "java", js: "javascript", mjs: "javascript", cjs: "javascript",
  jsx: "javascript", json: "json", mk: "makefile", md: "markdown", py: "python", rs: "rust", sql: "sql",
  ts: "typescript", tsx: "typescript", html: "xml", xml: "xml", svg: "xml", yml: "yaml", yaml: "yaml", toml: "yaml",
};

/** The highlight.js language for a file path, or undefined for plain text. */
export function languageFor(path: string): string | undefined {
  const name = path.split("/").pop() ?? "";
  if (name === "Makefile" || name === "GNUmakefile") return "makefile";
  if (name === "Dockerfile") return "bash";
  const dot = name.lastIndexOf(".");
  return dot >= 0 ? byExtension[name.slice(dot + 1).toLowerCase()] : undefined;
}

function escapeHTML(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escaped HTML of code, highlighted when its language is known. Large texts stay plain. */
export function highlight(code: string, language: string | undefined): string {
  if (!language || code.length > 400_000) return escapeHTML(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHTML(code);
  }
}
