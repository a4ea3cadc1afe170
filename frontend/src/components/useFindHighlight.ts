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

/** Whether the engine lays ranges out (jsdom does not). */
const measurable = (r: Range) => typeof r.getBoundingClientRect === "function";

/** Whether r is shown: inside every scrolled box around it, up to and with root. */
function inView(r: Range, root: HTMLElement): boolean {
  if (!measurable(r)) return true;
  const box = r.getBoundingClientRect();
  if (!box.height && !box.width) return false;
  for (let p = r.startContainer.parentElement; p; p = p.parentElement) {
    if (p === root || p.scrollHeight > p.clientHeight) {
      const v = p.getBoundingClientRect();
      if (box.top < v.top || box.bottom > v.bottom) return false;
    }
    if (p === root) return true;
  }
  return true;
}

/**
 * Scrolls the boxes around r so it shows: each scrolled box inside root by
 * its scrollTop, root itself through scrollBy when given (the list that
 * owns its scrolling), a third down from root's top.
 */
function bringIntoView(r: Range, root: HTMLElement, scrollBy?: (dy: number) => void) {
  if (!measurable(r)) {
    r.startContainer.parentElement?.scrollIntoView?.({ block: "nearest" });
    return;
  }
  for (let p = r.startContainer.parentElement; p && p !== root; p = p.parentElement) {
    if (p.scrollHeight <= p.clientHeight) continue;
    const box = r.getBoundingClientRect();
    const v = p.getBoundingClientRect();
    if (box.top < v.top || box.bottom > v.bottom) p.scrollTop += box.top - v.top - p.clientHeight / 3;
  }
  const box = r.getBoundingClientRect();
  const v = root.getBoundingClientRect();
  if (box.top >= v.top && box.bottom <= v.bottom) return;
  const dy = box.top - v.top - root.clientHeight / 3;
  if (scrollBy) scrollBy(dy);
  else root.scrollTop += dy;
}

// How long the current match is kept in view while the rows around it are
// still being measured and moved, and for how many frames it must stay put.
const settleMs = 2000;
const steadyFrames = 5;

/**
 * Highlights every match of query in the rows under root ("find"), those of
 * the row at index current apart ("find-current"), without touching the DOM
 * the components own; repaints as rows render, stream or unfold. The first
 * current match is scrolled into view (inside a scrolled code block too),
 * and kept there while the row it is in, rendered just now far from where
 * the list was, is measured and the rows around it settle.
 */
export function useFindHighlight(root: RefObject<HTMLElement | null>, query: string, current: number, scrollBy?: (dy: number) => void) {
  useEffect(() => {
    const hl = api();
    const el = root.current;
    const q = query.trim().toLowerCase();
    if (!hl || !el || !q) return;
    let frame = 0;
    let shown = false;
    // The current match, kept in view until it has stayed put (see settleMs).
    let target: Range | undefined;
    let keepFrame = 0;
    let until = 0;
    let steady = 0;
    const keep = () => {
      keepFrame = 0;
      if (!target || performance.now() > until) return;
      if (target.startContainer.isConnected && inView(target, el)) steady++;
      else {
        steady = 0;
        if (target.startContainer.isConnected) bringIntoView(target, el, scrollBy);
      }
      if (steady < steadyFrames) keepFrame = requestAnimationFrame(keep);
    };
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
      target = cur[0];
      if (!shown && target) {
        shown = true;
        bringIntoView(target, el, scrollBy);
        until = performance.now() + settleMs;
        if (typeof requestAnimationFrame === "function") keepFrame = requestAnimationFrame(keep);
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
      cancelAnimationFrame(keepFrame);
      hl.reg.delete("find");
      hl.reg.delete("find-current");
    };
  }, [root, query, current]); // eslint-disable-line react-hooks/exhaustive-deps -- scrollBy is read when called
}
