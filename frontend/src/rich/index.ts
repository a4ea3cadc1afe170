// Rich text, loaded after the first frame: the app's one highlighter
// (highlight.js with its languages) and the markdown renderer (marked +
// DOMPurify) are most of the page's script, and the first frame needs
// neither. Until they arrive, code shows as plain escaped text and
// markdown as plain text; every component that draws rich text calls
// useRich() and re-renders once they are in.
//
// This module is small and loaded with the page; ./load holds the heavy
// part and is only ever imported from here, dynamically.
import { useEffect, useSyncExternalStore } from "react";

type Loaded = typeof import("./load");

let loaded: Loaded | undefined;
let pending: Promise<Loaded> | undefined;
const listeners = new Set<() => void>();

/** Loads the highlighter and markdown renderer once; later calls share the first. */
export function loadRich(): Promise<void> {
  pending ??= import("./load").then((m) => {
    loaded = m;
    for (const l of listeners) l();
    return m;
  });
  return pending.then(() => undefined);
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

/**
 * Whether rich text is available, asking for it when it is not. Put the
 * result in the dependencies of any memo that highlights or renders
 * markdown, so it is redone once the code arrives.
 */
export function useRich(): boolean {
  const ready = useSyncExternalStore(subscribe, () => loaded !== undefined);
  useEffect(() => {
    if (!ready) void loadRich();
  }, [ready]);
  return ready;
}

export function escapeHTML(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The highlight.js language for a fence name or a file path; "" when none fits or the highlighter is not loaded yet. */
export function languageFor(nameOrPath: string | undefined): string {
  return loaded ? loaded.languageFor(nameOrPath) : "";
}

/** HTML of code with highlight spans; escaped plain text when the language is unknown, the text is huge, or the highlighter is not loaded yet. */
export function highlight(code: string, language: string | undefined): string {
  return loaded ? loaded.highlight(code, language) : escapeHTML(code);
}

/** Sanitised HTML for markdown text, or undefined while the renderer is not loaded yet (show the text as it is). */
export function renderMarkdown(text: string): string | undefined {
  return loaded?.renderMarkdown(text);
}

type Idle = (cb: (d: { timeRemaining(): number }) => void) => number;

/**
 * Renders the markdown of texts ahead of need, in the page's idle time, so
 * a row that scrolls into view later finds its HTML made (renderMarkdown
 * keeps what it made). Texts go in order; the returned function stops.
 */
export function prerenderMarkdown(texts: readonly string[]): () => void {
  let stopped = false;
  let next = 0;
  let handle = 0;
  const idle: Idle = (globalThis as unknown as { requestIdleCallback?: Idle }).requestIdleCallback
    ?? ((cb) => setTimeout(() => cb({ timeRemaining: () => 8 }), 50) as unknown as number);
  const cancel = (globalThis as unknown as { cancelIdleCallback?: (h: number) => void }).cancelIdleCallback ?? clearTimeout;
  const work = (d: { timeRemaining(): number }) => {
    handle = 0;
    if (stopped || !loaded) return;
    while (next < texts.length && d.timeRemaining() > 2) loaded.renderMarkdown(texts[next++]);
    if (next < texts.length) handle = idle(work);
  };
  void loadRich().then(() => {
    if (!stopped && texts.length) handle = idle(work);
  });
  return () => {
    stopped = true;
    if (handle) cancel(handle);
  };
}
