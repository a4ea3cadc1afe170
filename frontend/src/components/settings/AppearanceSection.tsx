import { useCallback, useEffect, useId, useState } from "react";
import type { SettingsView } from "../../bridge";
import { SaveBar, savedModel, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

/** The theme: the system's, light or dark. */
export function AppearanceSection({ deps, setDirty, onSaved }: SectionProps) {
  const { backend } = deps;
  const id = useId();
  const [view, setView] = useState<SettingsView | null>(null);
  const [theme, setTheme] = useState("system");
  useEffect(() => {
    backend.getSettings().then((v) => (setView(v), setTheme(v.theme || "system")), () => {});
  }, [backend]);
  const dirty = view !== null && theme !== (view.theme || "system");
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    if (!view) return;
    const v = await backend.saveSettings({ ...(await savedModel(backend)), theme });
    setView(v);
    onSaved();
  }, [backend, view, theme, onSaved]));
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      <label htmlFor={`${id}-theme`}>Theme</label>
      <select id={`${id}-theme`} value={theme} disabled={view === null} onChange={(e) => (setTheme(e.target.value), save.reset())}>
        <option value="system">Follow the system</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
