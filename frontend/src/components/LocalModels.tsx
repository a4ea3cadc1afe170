import { useEffect, useState } from "react";
import "./Sessions.css";
import type { LocalServer } from "../bridge/localModels";

/** "127.0.0.1:11434" from "http://127.0.0.1:11434/v1". */
export function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

const modelsText = (n: number) => (n === 0 ? "no models loaded" : `${n} model${n === 1 ? "" : "s"}`);

/**
 * The first-run screen's offer of model servers found on this machine
 * (Ollama, LM Studio): "Use Ollama at 127.0.0.1:11434 — 3 models" fills the
 * base URL and the first model; the server's other models can be picked.
 */
export function LocalModels(props: { detect: () => Promise<LocalServer[]>; onUse: (baseURL: string, model: string) => void }) {
  const { detect } = props;
  const [found, setFound] = useState<LocalServer[] | null>(null);
  const [chosen, setChosen] = useState<{ server: LocalServer; model: string } | null>(null);

  useEffect(() => {
    let live = true;
    detect().then((s) => live && setFound(s), () => live && setFound([]));
    return () => {
      live = false;
    };
  }, [detect]);

  if (found === null) {
    return (
      <p className="local-models field-note" role="status">
        Looking for a model server on this machine…
      </p>
    );
  }
  if (found.length === 0) return null;

  const use = (server: LocalServer, model: string) => {
    setChosen({ server, model });
    props.onUse(server.baseURL, model);
  };
  return (
    <div className="local-models" role="group" aria-label="Model servers on this machine">
      <p className="field-note">Found on this machine:</p>
      {found.map((s) => (
        <div key={s.baseURL} className="local-server">
          <button type="button" onClick={() => use(s, s.models[0] ?? "")}>
            Use {s.name} at {hostOf(s.baseURL)} — {modelsText(s.models.length)}
          </button>
          {chosen?.server.baseURL === s.baseURL && s.models.length === 0 && (
            <p className="field-note">Load or pull a model in {s.name}, then enter its name below.</p>
          )}
          {chosen?.server.baseURL === s.baseURL && s.models.length > 1 && (
            <div className="local-model-list" role="radiogroup" aria-label={`Models on ${s.name}`}>
              {s.models.map((m) => (
                <label key={m} className="local-model">
                  <input type="radio" name={`local-${s.baseURL}`} checked={chosen.model === m} onChange={() => use(s, m)} />
                  <span className="mono">{m}</span>
                </label>
              ))}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
