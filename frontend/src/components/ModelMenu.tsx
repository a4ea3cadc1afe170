import { useEffect, useState } from "react";
import type { AppState, Backend } from "../bridge";
import { useMenu } from "./useMenu";
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
  // The current model is focused on opening, and again when the list
  // arrives if the redraw took focus away (useMenu's refocusOn).
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const { open, close, buttonProps, menuProps } = useMenu('[aria-checked="true"]', load.state);
  const [switching, setSwitching] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
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

  const applies = props.busy
    ? "Applies from the next turn; the running turn keeps its model"
    : "Applies from the next turn";

  return (
    <div className="model-picker">
      <button {...buttonProps} className="model" aria-label={`Model ${model}`} title="Switch the model">
        <span className="model-label">model</span> <span className="mono">{model}</span> <span aria-hidden>▾</span>
      </button>
      {open && (
        // What the list is doing is said beside the menu, not in it: a menu holds only its items.
        <div className="model-menu">
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
          <div {...menuProps} aria-label="Models">
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
        </div>
      )}
    </div>
  );
}
