// The page's two fonts (one sans for prose, one monospace for code), as
// --font-sans and --font-mono. The stacks name each desktop's usual family;
// the window's WebKit tries them in order, asking fontconfig once per size
// and weight for every name before the one it has. The backend answers once
// which family wins (fontFamilies), and the page names it first: the same
// font, found at the first lookup.

export const SANS = ["system-ui", "-apple-system", "Segoe UI", "Cantarell", "Noto Sans", "DejaVu Sans", "sans-serif"];
export const MONO = ["ui-monospace", "SFMono-Regular", "JetBrains Mono", "DejaVu Sans Mono", "Liberation Mono", "monospace"];

/** CSS keywords of the stacks, written bare; every other name is quoted. */
const KEYWORDS = new Set(["system-ui", "-apple-system", "ui-monospace", "sans-serif", "monospace"]);

const name = (family: string) => (KEYWORDS.has(family) ? family : JSON.stringify(family));

/** The stack as a CSS font-family value, led by first (the family the window resolved it to) when there is one. */
export function fontStack(stack: readonly string[], first?: string): string {
  return (first ? [JSON.stringify(first), ...stack.map(name)] : stack.map(name)).join(", ");
}

/** Sets the page's fonts: resolved holds the winning family of SANS and of MONO ("" or absent: unknown). */
export function applyFonts(resolved: readonly string[] = []) {
  const root = document.documentElement.style;
  root.setProperty("--font-sans", fontStack(SANS, resolved[0]));
  root.setProperty("--font-mono", fontStack(MONO, resolved[1]));
}
