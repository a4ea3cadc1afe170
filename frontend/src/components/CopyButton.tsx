import { useEffect, useState } from "react";
import { useChatActions } from "./ChatActions";

/** A small button that puts text on the clipboard and says so ("Copied", or why not). */
export function CopyButton({ text, label = "Copy", className = "" }: { text: string | (() => string); label?: string; className?: string }) {
  const { copy } = useChatActions();
  const [state, setState] = useState<{ ok: boolean; why?: string } | null>(null);
  useEffect(() => {
    if (!state?.ok) return;
    const t = setTimeout(() => setState(null), 1500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className={`copy-button ${className}`}
      aria-label={label}
      title={state && !state.ok ? state.why : label}
      onClick={(e) => {
        e.stopPropagation();
        copy(typeof text === "function" ? text() : text).then(
          () => setState({ ok: true }),
          (err) => setState({ ok: false, why: String(err instanceof Error ? err.message : err) }),
        );
      }}
    >
      <span aria-live="polite">{state ? (state.ok ? "Copied" : "Copy failed") : "Copy"}</span>
    </button>
  );
}
