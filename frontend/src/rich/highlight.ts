// The app's one highlighter (DESIGN.md): chat code blocks, tool cards, the
// diff view and the file viewer. highlight.js core with the languages a
// coding agent meets most, registered by hand to keep the bundle small.
import hljs from "highlight.js/lib/core";
import { escapeHTML } from "./index";
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
  sh: "bash", zsh: "bash", h: "c", hpp: "cpp", cc: "cpp", js: "javascript", mjs: "javascript", cjs: "javascript",
  jsx: "javascript", ts: "typescript", tsx: "typescript", md: "markdown", py: "python", rs: "rust",
  html: "xml", svg: "xml", yml: "yaml", toml: "yaml", patch: "diff", mod: "go", mk: "makefile",
  makefile: "makefile", gnumakefile: "makefile", dockerfile: "bash",
};

/** The highlight.js language for a fence name or a file path, or "" when none fits. */
export function languageFor(nameOrPath: string | undefined): string {
  if (!nameOrPath) return "";
  const n = (nameOrPath.split("/").pop() ?? "").toLowerCase();
  const ext = n.includes(".") ? n.slice(n.lastIndexOf(".") + 1) : n;
  for (const cand of [n, ext, byExtension[ext] ?? ""]) if (cand && hljs.getLanguage(cand)) return cand;
  return "";
}


/** HTML of code with highlight spans; escaped plain text when the language is unknown or the text is huge. */
export function highlight(code: string, language: string | undefined): string {
  const lang = languageFor(language);
  if (!lang || code.length > 400_000) return escapeHTML(code);
  try {
    return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return escapeHTML(code);
  }
}
