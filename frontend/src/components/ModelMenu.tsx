import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { AppState, Backend } from "../bridge";
import "./ModelMenu.css";

export type ModelsBackend = Pick<Backend, "listModels" | "setModel">;

type Load = { state: "loading" } | { state: "done"; list: string[] } | { state: "failed"; error: string };

const message = (e: unknown) => String(e instanceof Error ? e.message : e);

/**
 * The header's model menu: the server's models with the current one
 * checked, choosing one saves it for the next turn, and "Settings…". The
 * list is asked for each time the menu opens; while it loads, or when that
 * fails, the current model is still listed. busy: a turn runs, which keeps
 * the model it started with.
 */
export function ModelMenu(props: {
  backend: ModelsBackend;
  model: string;
  busy: boolean;
  onChanged: (s: AppState) => void;
  onOpenSettings: () => void;
}) {
  const { backend, model, onChanged } = props;
  const [open, setOpen] = useState(false);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [switching, setSwitching] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setError(null);
    setLoad({ state: "loading" });
    backend.listModels().then(
      (list) => live && setLoad({ state: "done", list }),
      (e) => live && setLoad({ state: "failed", error: message(e) }),
    );
    return () => {
      live = false;
    };
  }, [open, backend]);

  // Focus the current model on opening (its item stays the same element when
  // the list arrives, so focus stays too); close on a click outside.
  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    const outside = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) close(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open, close]);

  // A server may list only some of its models: the current one is shown anyway, first.
  const listed = load.state === "done" ? load.list : [];
  const names = listed.includes(model) ? listed : [model, ...listed];

  const choose = async (name: string) => {
    if (switching !== null) return;
    if (name === model) return close(true);
    setSwitching(name);
    setError(null);
    try {
      onChanged(await backend.setModel(name));
      close(true);
    } catch (e) {
      setError(message(e));
    } finally {
      setSwitching(null);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"], [role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    const go = (j: number) => items[(j + items.length) % items.length]?.focus();
    if (e.key === "Escape") close(true);
    else if (e.key === "ArrowDown") go(i + 1);
    else if (e.key === "ArrowUp") go(i < 0 ? -1 : i - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(items.length - 1);
    else if (e.key === "Tab") close(false);
    else return;
    if (e.key !== "Tab") e.preventDefault();
  };

  const applies = props.busy
    ? "Applies from the next turn; the running turn keeps its model"
    : "Applies from the next turn";

  return (
    <div className="model-picker">
      <button
        ref={button}
        className="model"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={`Model ${model}`}
        title="Switch the model"
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        <span className="model-label">model</span> <span className="mono">{model}</span> <span aria-hidden>▾</span>
      </button>
      {open && (
        <div ref={menu} id={`${id}-menu`} role="menu" aria-label="Models" className="model-menu" onKeyDown={onKeyDown}>
          <ul className="model-list" role="group" aria-label="Models on the server">
            {names.map((name) => (
              <li key={name} role="none">
                <button
                  role="menuitemradio"
                  aria-checked={name === model}
                  aria-disabled={switching !== null && switching !== name}
                  className="model-item mono"
                  title={name === model ? "The model in use" : applies}
                  onClick={() => void choose(name)}
                >
                  <span className="model-check" aria-hidden>
                    {name === model ? "✓" : ""}
                  </span>
                  {name}
                  {switching === name && <span className="model-note"> switching…</span>}
                </button>
              </li>
            ))}
          </ul>
          {load.state === "loading" && (
            <p className="model-status" role="status">
              Loading models…
            </p>
          )}
          {load.state === "failed" && (
            <p className="model-error" role="alert">
              Could not list the models: {load.error}
            </p>
          )}
          {load.state === "done" && load.list.length === 0 && <p className="model-status">The server lists no models.</p>}
          {error && (
            <p className="model-error" role="alert">
              {error}
            </p>
          )}
          <div role="separator" />
          <button
            role="menuitem"
            className="model-settings"
            onClick={() => {
              close(false);
              props.onOpenSettings();
            }}
          >
            Settings…
          </button>
        </div>
      )}
    </div>
  );
}
