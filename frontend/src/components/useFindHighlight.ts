import { useEffect, type RefObject } from "react";

type Registry = { set(name: string, h: unknown): void; delete(name: string): void };
type HighlightCtor = new (...ranges: Range[]) => unknown;

/** The CSS Custom Highlight API, where the engine has it (Chromium, WebKitGTK 2.44+). */
function api(): { reg: Registry; H: HighlightCtor } | null {
  const reg = (globalThis.CSS as unknown as { highlights?: Registry } | undefined)?.highlights;
  const H = (globalThis as unknown as { Highlight?: HighlightCtor }).Highlight;
  return reg && H ? { reg, H } : null;
}

/** The ranges of q (lower case) in the text of el, also across the spans a highlighter splits code into. */
function rangesIn(el: Element, q: string): Range[] {
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = "";
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    if (t.parentElement?.closest("[aria-hidden='true'], button")) continue; // gutters, markers, buttons
    nodes.push(t);
    starts.push(text.length);
    text += t.data;
  }
  const lower = text.toLowerCase();
  const out: Range[] = [];
  const at = (pos: number): [Text, number] => {
    let i = starts.length - 1;
    while (i > 0 && starts[i] > pos) i--;
    return [nodes[i], pos - starts[i]];
  };
  for (let i = lower.indexOf(q); i >= 0 && q; i = lower.indexOf(q, i + q.length)) {
    const r = document.createRange();
    const [sn, so] = at(i);
    const [en, eo] = at(i + q.length - 1);
    r.setStart(sn, so);
    r.setEnd(en, eo + 1);
    out.push(r);
  }
  return out;
}

/**
 * Highlights every match of query in the rows under root ("find"), those of
 * the row at index current apart ("find-current"), without touching the DOM
 * the components own; repaints as rows render, stream or unfold. The first
 * current match is scrolled into view (inside a scrolled code block too).
 */
export function useFindHighlight(root: RefObject<HTMLElement | null>, query: string, current: number) {
  useEffect(() => {
    const hl = api();
    const el = root.current;
    const q = query.trim().toLowerCase();
    if (!hl || !el || !q) return;
    let frame = 0;
    let shown = false;
    const paint = () => {
      frame = 0;
      const all: Range[] = [];
      const cur: Range[] = [];
      for (const row of el.querySelectorAll(".row[data-index]")) {
        const mine = Number((row as HTMLElement).dataset.index) === current;
        (mine ? cur : all).push(...rangesIn(row, q));
      }
      hl.reg.set("find", new hl.H(...all));
      hl.reg.set("find-current", new hl.H(...cur));
      if (!shown && cur.length) {
        shown = true;
        const target = cur[0].startContainer.parentElement;
        target?.scrollIntoView?.({ block: "nearest" });
      }
    };
    paint();
    const mo = new MutationObserver(() => {
      if (!frame) frame = requestAnimationFrame(paint);
    });
    mo.observe(el, { childList: true, subtree: true, characterData: true });
    return () => {
      mo.disconnect();
      cancelAnimationFrame(frame);
      hl.reg.delete("find");
      hl.reg.delete("find-current");
    };
  }, [root, query, current]);
}
