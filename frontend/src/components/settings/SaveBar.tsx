import { useCallback, useState } from "react";
import type { SettingsInput } from "../../bridge";
import type { SettingsBackend } from "./sections";

/**
 * The model's fields as saved now, for a section that saves through
 * saveSettings but changes only its own fields (the backend takes the
 * model's with every save). Read at the save, so another section's save
 * since this one loaded is kept.
 */
export async function savedModel(backend: SettingsBackend): Promise<Omit<SettingsInput, "theme">> {
  const v = await backend.getSettings();
  return { baseURL: v.baseURL, model: v.model, api: v.api, apiKey: "", clearKey: false, sendKey: false };
}

/**
 * The one rule of Settings, in code: a section keeps what is typed as a
 * draft and changes nothing until its own Save. useSave runs a section's
 * save and tells the bar how it went; SaveBar is the Save button with that
 * outcome beside it ("Saved." or the error in words).
 */
export function useSave(save: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; error: string } | null>(null);
  const run = useCallback(async () => {
    setBusy(true);
    setOutcome(null);
    try {
      await save();
      setOutcome({ ok: true });
    } catch (e) {
      setOutcome({ ok: false, error: String(e instanceof Error ? e.message : e) });
    } finally {
      setBusy(false);
    }
  }, [save]);
  /** Forget the last outcome (the user changed something since). */
  const reset = useCallback(() => setOutcome(null), []);
  return { busy, outcome, run, reset };
}

export function SaveBar({ dirty, busy, outcome, children }: {
  /** Something differs from what is saved. */
  dirty: boolean;
  busy: boolean;
  outcome: ReturnType<typeof useSave>["outcome"];
  /** Buttons before Save (Test connection, Close on first run). */
  children?: React.ReactNode;
}) {
  return (
    <div className="settings-savebar">
      {outcome && !outcome.ok && <p className="settings-error" role="alert">{outcome.error}</p>}
      <div className="settings-actions">
        <span className="settings-saved" aria-live="polite">
          {busy ? "Saving…" : outcome?.ok && !dirty ? "✓ Saved." : dirty ? "Unsaved changes" : ""}
        </span>
        {children}
        <button type="submit" className="primary" disabled={busy || !dirty}>Save</button>
      </div>
    </div>
  );
}
