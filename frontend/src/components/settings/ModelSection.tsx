import { useCallback, useEffect, useId, useState } from "react";
import type { ConnectionResult, ModelAPI, SettingsInput, Source as SettingSource, SettingsView } from "../../bridge";
import { LocalModels } from "../LocalModels";
import { PriceFields, priceInput, priceText, type PriceText } from "../PriceFields";
import { SaveBar, useSave } from "./SaveBar";
import { VisionField } from "./VisionField";
import type { SectionProps } from "./sections";

const statusWords: Record<ConnectionResult["status"], string> = {
  reachable: "Reachable",
  key_rejected: "Key rejected",
  model_unknown: "Model unknown",
  unreachable: "Unreachable",
};

function sourceNote(src: SettingSource, what: string): string | null {
  if (src === "flag") return `Set by a command-line flag, which wins over what you save here.`;
  if (src === "env") return `From the environment (${what}), which wins over what you save here.`;
  return null;
}

/** Whether two base URLs name the same server, as the backend compares them (settings.SameServer). */
export function sameServer(a: string, b: string): boolean {
  const norm = (s: string) => {
    try {
      const u = new URL(s.trim());
      return `${u.protocol}//${u.host}/${u.pathname.replace(/^\/+|\/+$/g, "")}${u.search}`;
    } catch {
      return null;
    }
  };
  const na = norm(a);
  return na !== null && na === norm(b);
}

type Form = Omit<SettingsInput, "theme" | "price" | "clearPrice" | "context">;
const formOf = (v: SettingsView): Form => ({ baseURL: v.baseURL, model: v.model, apiKey: "", clearKey: false, api: v.api || "chat", sendKey: false });
const same = (a: Form, b: Form, p: PriceText) =>
  !p.touched && a.baseURL === b.baseURL && a.model === b.model && a.api === b.api && !a.apiKey && !a.clearKey;

/**
 * Base URL, API key, model, API and price, with a connection test. It is
 * also the whole first-run screen (firstRun), where Save goes on to the chat.
 */
export function ModelSection({ deps, setDirty, onSaved, firstRun }: SectionProps & { firstRun?: boolean }) {
  const { backend } = deps;
  const [view, setView] = useState<SettingsView | null>(null);
  const [form, setForm] = useState<Form>({ baseURL: "", model: "", apiKey: "", clearKey: false, api: "chat", sendKey: false });
  const [price, setPrice] = useState<PriceText>(() => priceText(null));
  const [test, setTest] = useState<{ busy: boolean; result?: ConnectionResult }>({ busy: false });
  const [loadError, setLoadError] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    backend.getSettings().then((v) => {
      setView(v);
      setForm(formOf(v));
      setPrice(priceText(v));
    }, (e) => setLoadError(`Could not load the settings: ${String(e)}`));
  }, [backend]);

  const dirty = view ? !same(form, formOf(view), price) : firstRun === true && form.baseURL !== "";
  useEffect(() => setDirty(dirty), [dirty, setDirty]);

  const save = useSave(useCallback(async () => {
    const v = await backend.saveSettings({ ...form, theme: "", ...priceInput(price) });
    setView(v);
    setForm(formOf(v));
    setPrice(priceText(v));
    onSaved();
  }, [backend, form, price, onSaved]));

  const set = (patch: Partial<Form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setTest({ busy: false });
    save.reset();
  };

  const runTest = async () => {
    setTest({ busy: true });
    try {
      setTest({ busy: false, result: await backend.testConnection({ ...form, theme: "" }) });
    } catch (e) {
      setTest({ busy: false, result: { status: "unreachable", message: String(e) } });
    }
  };

  const keyNote = !view
    ? null
    : view.sources.apiKey === "env"
      ? "A key comes from the environment (OPENAI_API_KEY); it wins over a saved one."
      : view.sources.apiKey === "flag"
        ? "A key is set by a command-line flag."
        : view.hasKey
          ? form.clearKey
            ? "The saved key will be removed."
            : "A key is saved. Leave this empty to keep it."
          : "No key is saved. Local servers often need none.";
  const r = test.result;
  // The saved key goes only to the server it was saved for, unless the user says otherwise.
  const keyElsewhere = !!view?.hasKey && !form.apiKey && !form.clearKey && !!form.baseURL && !sameServer(form.baseURL, view.baseURL);
  // Fields wait for the saved values, so nothing typed is overwritten when they arrive.
  const loading = view === null && loadError === null;

  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      {firstRun && (
        <p className="settings-intro">
          Gatehouse talks to any OpenAI-compatible server: OpenAI, a hosted provider, or a local one such as Ollama or LM Studio.
        </p>
      )}
      {firstRun && deps.localModels && (
        <LocalModels detect={deps.localModels} onUse={(baseURL, model) => set({ baseURL, model, apiKey: "", clearKey: false, sendKey: false })} />
      )}
      {loadError && <p className="settings-error" role="alert">{loadError}</p>}
      <label htmlFor={`${id}-url`}>Base URL</label>
      <input id={`${id}-url`} type="url" required disabled={loading} placeholder="https://api.openai.com/v1" value={form.baseURL}
        onChange={(e) => set({ baseURL: e.target.value, sendKey: false })} aria-describedby={`${id}-url-note`} />
      <p id={`${id}-url-note`} className="field-note">{view && sourceNote(view.sources.baseURL, "OPENAI_BASE_URL")}</p>

      <label htmlFor={`${id}-key`}>API key</label>
      <div className="key-row">
        <input id={`${id}-key`} type="password" autoComplete="off" disabled={loading} value={form.apiKey}
          placeholder={view?.hasKey ? "•••••••• (saved)" : "sk-…"} aria-describedby={`${id}-key-note`}
          onChange={(e) => set({ apiKey: e.target.value, clearKey: false })} />
        {view?.hasKey && view.sources.apiKey === "saved" && (
          <button type="button" onClick={() => set({ apiKey: "", clearKey: !form.clearKey })}>
            {form.clearKey ? "Keep saved key" : "Remove saved key"}
          </button>
        )}
      </div>
      <p id={`${id}-key-note`} className="field-note">{keyNote}</p>
      {keyElsewhere && (
        <label className="send-key">
          <input type="checkbox" checked={form.sendKey} onChange={(e) => set({ sendKey: e.target.checked })} aria-describedby={`${id}-send-note`} />
          Send the saved key to this server too
        </label>
      )}
      {keyElsewhere && (
        <p id={`${id}-send-note`} className="field-note">
          Your key is kept for <span className="mono">{view?.baseURL}</span>. It goes to another server only if you type it above or tick this.
        </p>
      )}

      <label htmlFor={`${id}-model`}>Model</label>
      <input id={`${id}-model`} required disabled={loading} placeholder="gpt-4.1" value={form.model}
        onChange={(e) => set({ model: e.target.value })} aria-describedby={`${id}-model-note`} />
      <p id={`${id}-model-note`} className="field-note">{view && sourceNote(view.sources.model, "a flag")}</p>

      <label htmlFor={`${id}-api`}>API</label>
      <select id={`${id}-api`} disabled={loading} value={form.api} aria-describedby={`${id}-api-note`}
        onChange={(e) => set({ api: e.target.value as ModelAPI })}>
        <option value="chat">Chat Completions</option>
        <option value="responses">Responses</option>
      </select>
      <p id={`${id}-api-note`} className="field-note">
        {(view && sourceNote(view.sources.api, "GATEHOUSE_API")) ??
          (form.api === "responses"
            ? "OpenAI's Responses API (/responses). Servers without it answer 404."
            : "Works with every OpenAI-compatible server: OpenAI, Ollama, LM Studio, vLLM.")}
      </p>

      {view && !firstRun && deps.vision && <VisionField backend={deps.vision} model={view.model} />}

      <PriceFields id={id} view={view} model={form.model} value={price} onChange={(p) => (setPrice(p), save.reset())} disabled={loading} />

      <div className="settings-test">
        <button type="button" onClick={runTest} disabled={test.busy || !form.baseURL}>
          {test.busy ? "Testing…" : "Test connection"}
        </button>
        <div role="status" aria-live="polite" className={`test-result ${r ? `test-${r.status}` : ""}`}>
          {test.busy && "Connecting…"}
          {r && (
            <>
              <strong>{r.status === "reachable" ? "✓ " : "✗ "}{statusWords[r.status] ?? r.status}:</strong> {r.message}
            </>
          )}
        </div>
      </div>
      <SaveBar dirty={dirty || (firstRun === true && !!form.model)} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
