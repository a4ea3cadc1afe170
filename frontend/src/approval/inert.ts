// The page behind a modal dialog: unreachable by Tab and hidden from screen readers.

/**
 * Marks every element of the page that is not el, an ancestor of el or
 * inside el as inert (the siblings of el and of each of its ancestors),
 * and returns the undo. Elements that were inert already are left as they
 * were, and stay so after the undo.
 */
export function inertOutside(el: HTMLElement): () => void {
  const made: Element[] = [];
  for (let node: Element | null = el; node && node.parentElement; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement.children)) {
      if (sibling === node || sibling.hasAttribute("inert") || sibling.tagName === "SCRIPT" || sibling.tagName === "STYLE") continue;
      sibling.setAttribute("inert", "");
      made.push(sibling);
    }
  }
  return () => made.forEach((s) => s.removeAttribute("inert"));
}
