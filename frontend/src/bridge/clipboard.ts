// The app's one clipboard path: Wails' runtime clipboard (the window's own,
// so it works in the WebKitGTK window, where the page's clipboard API may be
// refused), or the page's clipboard API in a plain browser.
import { ClipboardSetText } from "./wailsjs/runtime/runtime";

declare global {
  interface Window {
    /** Wails' runtime, installed in the app's window only. */
    runtime?: { ClipboardSetText?: unknown };
  }
}

/** Puts text on the system clipboard; rejects with a sentence when nothing could take it. */
export async function copyText(text: string): Promise<void> {
  if (typeof window.runtime?.ClipboardSetText === "function") {
    if (await ClipboardSetText(text)) return;
    throw new Error("The system clipboard did not take the text.");
  }
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  throw new Error("No clipboard is available here.");
}
