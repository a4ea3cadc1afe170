import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import "./About.css";

/** What a dialog asked the app for: still loading, there, or failed with the reason in words. */
export type Loaded<T> = { state: "loading" } | { state: "done"; value: T } | { state: "failed"; error: string };

/** Loads once per load function; a result arriving after unmount is dropped. */
export function useLoaded<T>(load: () => Promise<T>): Loaded<T> {
  const [got, setGot] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setGot({ state: "done", value }),
      (e) => live && setGot({ state: "failed", error: String(e instanceof Error ? e.message : e) }),
    );
    return () => {
      live = false;
    };
  }, [load]);
  return got;
}

/**
 * A modal dialog that shows something to read (About, what the model was
 * told): titled, focus on its Close button when it opens, Escape or a click
 * beside it closes.
 */
export function InfoDialog(props: { title: string; onClose: () => void; children: ReactNode }) {
  const { onClose } = props;
  const id = useId();
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => closeButton.current?.focus(), []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
    }
  };
  return (
    <div className="about-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="about" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} onKeyDown={onKeyDown}>
        <header className="about-head">
          <h1 id={`${id}-title`}>{props.title}</h1>
          <button ref={closeButton} className="icon-button" onClick={onClose} aria-label="Close">
            <span aria-hidden>✕</span>
          </button>
        </header>
        {props.children}
      </div>
    </div>
  );
}
