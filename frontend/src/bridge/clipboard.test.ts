import { afterEach, describe, expect, it, vi } from "vitest";
import { copyText } from "./clipboard";

const w: Window = window;
afterEach(() => {
  delete w.runtime;
  Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
});

describe("copyText", () => {
  it("goes through the window's own clipboard (Wails runtime) when there is one", async () => {
    const set = vi.fn(async () => true);
    const page = vi.fn(async () => {});
    w.runtime = { ClipboardSetText: set };
    Object.defineProperty(navigator, "clipboard", { value: { writeText: page }, configurable: true });
    await copyText("npm test");
    expect(set).toHaveBeenCalledWith("npm test");
    expect(page).not.toHaveBeenCalled();
  });

  it("says so when the window's clipboard refuses", async () => {
    w.runtime = { ClipboardSetText: async () => false };
    await expect(copyText("x")).rejects.toThrow("The system clipboard did not take the text.");
  });

  it("falls back to the page's clipboard in a plain browser, and says when there is none", async () => {
    const page = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText: page }, configurable: true });
    await copyText("y");
    expect(page).toHaveBeenCalledWith("y");
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
    await expect(copyText("z")).rejects.toThrow("No clipboard is available here.");
  });
});
