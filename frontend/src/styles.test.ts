// The colours of code and diffs, read from the style sheets the page loads.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const sheet = (name: string) => readFileSync(new URL(name, import.meta.url), "utf8");
const styles = sheet("./styles.css");

/** The custom properties set in the block that follows selector in styles.css. */
function vars(selector: string): Record<string, string> {
  const at = styles.indexOf(selector);
  expect(at, selector).toBeGreaterThanOrEqual(0);
  const body = styles.slice(styles.indexOf("{", at) + 1, styles.indexOf("}", at));
  return Object.fromEntries(Array.from(body.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi), (m) => [m[1], m[2]]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const light = vars(":root {");
const themes = {
  light,
  "dark (system)": { ...light, ...vars(':root:not([data-theme="light"]) {') },
  "dark (setting)": { ...light, ...vars(':root[data-theme="dark"] {') },
};

describe("code and diff colours", () => {
  for (const [name, v] of Object.entries(themes)) {
    it(`every token colour reads at 4.5:1 or more on code, added and removed rows (${name})`, () => {
      for (const token of ["tok-comment", "tok-keyword", "tok-string", "tok-number", "tok-title", "text", "muted", "hunk"]) {
        for (const bg of ["code-bg", "add-bg", "del-bg", "panel", "surface"]) {
          expect(contrast(v[token], v[bg]), `${token} on ${bg}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });
  }

  it("leaves the diff's tints to the diff view: no other sheet restyles its rows or the token colours", () => {
    const files = sheet("./files.css");
    expect(files).not.toMatch(/\.diff-(add|del|no|hunk)\b/);
    expect(files).not.toMatch(/\.hljs-/);
  });
});
