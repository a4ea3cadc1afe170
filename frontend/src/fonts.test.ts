import { afterEach, describe, expect, it } from "vitest";
import { applyFonts, fontStack, MONO, SANS } from "./fonts";

const root = () => document.documentElement.style;

describe("fonts", () => {
  afterEach(() => {
    root().removeProperty("--font-sans");
    root().removeProperty("--font-mono");
  });

  it("writes the stacks as the style sheet had them when nothing is resolved", () => {
    applyFonts();
    expect(root().getPropertyValue("--font-sans")).toBe('system-ui, -apple-system, "Segoe UI", "Cantarell", "Noto Sans", "DejaVu Sans", sans-serif');
    expect(root().getPropertyValue("--font-mono")).toBe('ui-monospace, "SFMono-Regular", "JetBrains Mono", "DejaVu Sans Mono", "Liberation Mono", monospace');
  });

  it("names the resolved family first, the stack after it for the glyphs it lacks", () => {
    applyFonts(["DejaVu Sans", ""]);
    expect(root().getPropertyValue("--font-sans")).toBe(`"DejaVu Sans", ${fontStack(SANS)}`);
    expect(root().getPropertyValue("--font-mono")).toBe(fontStack(MONO));
  });

  it("quotes a family name so the style cannot be broken out of", () => {
    expect(fontStack([], 'Evil", serif; x: "')).toBe('"Evil\\", serif; x: \\""');
  });
});
