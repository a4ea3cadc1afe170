import { useLayoutEffect, useRef } from "react";
import { SHORTCUTS } from "./shortcuts";

/** F1: every keyboard shortcut, in a dialog that Esc or the button closes. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  const before = useRef<Element | null>(document.activeElement);
  // Focus moves in before the overlay is painted, so an Esc or F1 pressed
  // as it appears already reaches it.
  useLayoutEffect(() => {
    close.current?.focus();
    const back = before.current;
    return () => (back as HTMLElement | null)?.focus?.();
  }, []);
  return (
    <div className="help-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="help-overlay" role="dialog" aria-modal="true" aria-labelledby="help-title"
        onKeyDown={(e) => {
          if (e.key === "Escape" || e.key === "F1") {
            e.preventDefault();
            onClose();
          } else if (e.key === "Tab") {
            e.preventDefault(); // one control: focus stays on it
          }
        }}>
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table>
          <thead><tr><th scope="col">Keys</th><th scope="col">Does</th><th scope="col">Where</th></tr></thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={`${s.keys}:${s.where}`}><td><kbd>{s.keys}</kbd></td><td>{s.what}</td><td>{s.where}</td></tr>
            ))}
          </tbody>
        </table>
        <button ref={close} type="button" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
