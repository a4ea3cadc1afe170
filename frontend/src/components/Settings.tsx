import { useEffect, useId, useState } from "react";
import type { ConnectionResult, ContextUse, ModelAPI, SettingSource, SettingsInput, SettingsView } from "../bridge";
import type { LocalServer } from "../bridge/localModels";
import { LocalModels } from "./LocalModels";
import { SandboxSettings } from "./SandboxSettings";
import type { SandboxBackend } from "../bridge/sandbox";
import type { TrustedFoldersBackend } from "../bridge/agents";
import { TrustedFolders } from "./TrustedFolders";
import { PriceFields, priceInput, priceText, type PriceText } from "./PriceFields";
import { ContextFields, contextInput, contextText, type ContextErrors, type ContextText } from "./ContextFields";

export interface SettingsBackend {
  getSettings(): Promise<SettingsView>;
  saveSettings(s: SettingsInput): Promise<SettingsView>;
  testConnection(s: SettingsInput): Promise<ConnectionResult>;
}

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

/**
 * Base URL, API key, model and API, with a connection test. Shown on first run
 * (firstRun) and from the header's ⚙ button.
 */
export function Settings(props: {
  backend: SettingsBackend;
  firstRun: boolean;
  onSaved: () => void;
  onClose?: () => void;
  /** Looks for model servers on this machine, offered on first run. */
  localModels?: () => Promise<LocalServer[]>;
  /** The sandbox block (not on first run). */
  sandbox?: SandboxBackend;
  /** The trusted folders block (not on first run). */
  trusted?: TrustedFoldersBackend;
  /** The header gauge's last reading: says where this session's context window comes from. */
  contextUse?: ContextUse;
}) {
  const { backend } = props;
  const [view, setView] = useState<SettingsView | null>(null);
  const [form, setForm] = useState<SettingsInput>({
    baseURL: "", model: "", apiKey: "", clearKey: false, theme: "system", api: "chat", sendKey: false,
  });
  const [test, setTest] = useState<{ busy: boolean; result?: ConnectionResult }>({ busy: false });
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [price, setPrice] = useState<PriceText>(() => priceText(null));
  const [ctx, setCtx] = useState<ContextText>(() => contextText(null));
  // null until a save found a bad value; from then on each change is checked as it is typed.
  const [ctxErrors, setCtxErrors] = useState<ContextErrors | null>(null);
  const id = useId();

  useEffect(() => {
    backend.getSettings().then((v) => {
      setView(v);
      setForm((f) => ({ ...f, baseURL: v.baseURL, model: v.model, theme: v.theme || "system", api: v.api || "chat" }));
      setPrice(priceText(v));
      setCtx(contextText(v));
    }, (e) => setSaveError(`Could not load the settings: ${String(e)}`));
  }, [backend]);

  const set = (patch: Partial<SettingsInput>) => {
    setForm((f) => ({ ...f, ...patch }));
    setTest({ busy: false });
  };

  const runTest = async () => {
    setTest({ busy: true });
    try {
      setTest({ busy: false, result: await backend.testConnection(form) });
    } catch (e) {
      setTest({ busy: false, result: { status: "unreachable", message: String(e) } });
    }
  };

  // The context fields are not on the first-run screen; there, and before the
  // saved values arrive, nothing is sent for them and the saved ones are kept.
  const showContext = !props.firstRun && view !== null;
  const changeCtx = (t: ContextText) => {
    setCtx(t);
    if (ctxErrors) setCtxErrors(contextInput(t).errors ?? {});
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaveError(null);
    const c = showContext ? contextInput(ctx) : { context: undefined, errors: undefined };
    const errs = c.errors;
    if (errs) {
      setCtxErrors(errs);
      const first = (["window", "microCompactAt", "compactAt"] as const).find((k) => errs[k]);
      document.getElementById(`${id}-ctx-${first}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const v = await backend.saveSettings({ ...form, ...priceInput(price), ...(c.context && { context: c.context }) });
      setView(v);
      setPrice(priceText(v));
      setCtx(contextText(v));
      setCtxErrors(null);
      setForm((f) => ({ ...f, apiKey: "", clearKey: false }));
      props.onSaved();
    } catch (err) {
      setSaveError(String(err instanceof Error ? err.message : err));
    } finally {
      setSaving(false);
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
  const loading = view === null && saveError === null;
  return (
    <section className="settings" aria-labelledby={`${id}-title`}>
      <form className="settings-form" onSubmit={save}>
        <h1 id={`${id}-title`}>{props.firstRun ? "Set up a model" : "Settings"}</h1>
        {props.firstRun && (
          <p className="settings-intro">
            Gatehouse talks to any OpenAI-compatible server: OpenAI, a hosted provider, or a local one such as Ollama or LM
            Studio.
          </p>
        )}
        {props.firstRun && props.localModels && (
          <LocalModels detect={props.localModels} onUse={(baseURL, model) => set({ baseURL, model, apiKey: "", clearKey: false, sendKey: false })} />
        )}
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

        <PriceFields id={id} view={view} model={form.model} value={price} onChange={setPrice} disabled={loading} />

        {showContext && <ContextFields id={id} value={ctx} errors={ctxErrors ?? {}} use={props.contextUse} onChange={changeCtx} />}

        <label htmlFor={`${id}-theme`}>Theme</label>
        <select id={`${id}-theme`} value={form.theme} onChange={(e) => set({ theme: e.target.value })}>
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>

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

        {saveError && <div className="settings-error" role="alert">{saveError}</div>}
        <div className="settings-actions">
          {props.onClose && <button type="button" onClick={props.onClose}>Close</button>}
          <button type="submit" className="primary" disabled={saving}>{saving ? "Saving…" : "Save"}</button>
        </div>
      </form>
      {props.sandbox && !props.firstRun && <SandboxSettings backend={props.sandbox} />}
      {props.trusted && !props.firstRun && <TrustedFolders backend={props.trusted} />}
    </section>
  );
}
