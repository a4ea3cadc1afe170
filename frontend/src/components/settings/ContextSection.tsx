import { useCallback, useEffect, useId, useState } from "react";
import type { SettingsView } from "../../bridge";
import { ContextFields, contextInput, contextText, type ContextErrors, type ContextText } from "../ContextFields";
import { SaveBar, savedModel, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

const sameText = (a: ContextText, b: ContextText) => a.window === b.window && a.microCompactAt === b.microCompactAt && a.compactAt === b.compactAt;

/** The context window and the compaction thresholds, saved on their own. */
export function ContextSection({ deps, setDirty, onSaved }: SectionProps) {
  const { backend } = deps;
  const id = useId();
  const [view, setView] = useState<SettingsView | null>(null);
  const [ctx, setCtx] = useState<ContextText>(() => contextText(null));
  // null until a save found a bad value; from then on each change is checked as it is typed.
  const [errors, setErrors] = useState<ContextErrors | null>(null);
  const [loadError, setLoadError] = useState("");
  useEffect(() => {
    backend.getSettings().then((v) => (setView(v), setCtx(contextText(v))), (e) => setLoadError(`Could not load the settings: ${String(e)}`));
  }, [backend]);
  const dirty = view !== null && !sameText(ctx, contextText(view));
  useEffect(() => setDirty(dirty), [dirty, setDirty]);

  const save = useSave(useCallback(async () => {
    if (!view) return;
    const c = contextInput(ctx);
    if (c.errors) {
      setErrors(c.errors);
      const first = (["window", "microCompactAt", "compactAt"] as const).find((k) => c.errors[k]);
      document.getElementById(`${id}-ctx-${first}`)?.focus();
      throw new Error("Some values cannot be saved: see the fields above.");
    }
    const v = await backend.saveSettings({ ...(await savedModel(backend)), theme: "", context: c.context });
    setView(v);
    setCtx(contextText(v));
    setErrors(null);
    onSaved();
  }, [backend, ctx, view, id, onSaved]));

  const change = (t: ContextText) => {
    setCtx(t);
    save.reset();
    if (errors) setErrors(contextInput(t).errors ?? {});
  };
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      {loadError && <p className="settings-error" role="alert">{loadError}</p>}
      <ContextFields id={id} value={ctx} errors={errors ?? {}} use={deps.contextUse} onChange={change} disabled={view === null} />
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
