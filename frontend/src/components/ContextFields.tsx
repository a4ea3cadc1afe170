import { DEFAULT_COMPACT_AT, DEFAULT_MICRO_COMPACT_AT, MIN_COMPACT_AT, type ContextLimits, type ContextUse, type SettingsView } from "../bridge";
import { windowSources } from "./ContextGauge";

// The backend's rules (internal/settings/context.go), checked here first so
// a bad value is shown at its field before anything is sent; the backend
// checks again and has the last word. The thresholds are generated from Go
// (internal/protocol/compaction.go).
const MIN_WINDOW = 1_000;
const MAX_WINDOW = 10_000_000;
const MIN_PERCENT = MIN_COMPACT_AT;

/** The context fields as typed; empty is "detect" (the window) or the default (the thresholds). */
export interface ContextText {
  window: string;
  microCompactAt: string;
  compactAt: string;
}

/** A sentence per field that cannot be saved. */
export type ContextErrors = Partial<Record<keyof ContextLimits, string>>;

const n = (x: number) => x.toLocaleString("en-US");

export const contextText = (v: SettingsView | null): ContextText => {
  const c = v?.context;
  const s = (x?: number) => (x ? String(x) : "");
  return { window: s(c?.window), microCompactAt: s(c?.microCompactAt), compactAt: s(c?.compactAt) };
};

/** A whole number typed with or without thousands separators (or a trailing %); "" is 0; null when it is not one. */
function whole(s: string, percent: boolean): number | null {
  let t = s.trim().replace(/[\s,_]/g, "");
  if (percent) t = t.replace(/%$/, "");
  if (t === "") return 0;
  return /^\d+$/.test(t) ? Number(t) : null;
}

/** The limits to send, or the errors to show at their fields. */
export function contextInput(t: ContextText): { context: ContextLimits; errors?: undefined } | { context?: undefined; errors: ContextErrors } {
  const errors: ContextErrors = {};
  const window = whole(t.window, false);
  if (window === null) errors.window = `"${t.window.trim()}" is not a number of tokens: type a whole number such as 32768.`;
  else if (window !== 0 && (window < MIN_WINDOW || window > MAX_WINDOW))
    errors.window = `The context window must be between ${n(MIN_WINDOW)} and ${n(MAX_WINDOW)} tokens, or empty to detect it.`;
  const pct = (key: "microCompactAt" | "compactAt", what: string) => {
    const v = whole(t[key], true);
    if (v === null) errors[key] = `"${t[key].trim()}" is not a percentage: type a whole number from ${MIN_PERCENT} to 100.`;
    else if (v !== 0 && (v < MIN_PERCENT || v > 100)) errors[key] = `${what} must start between ${MIN_PERCENT}% and 100% of the window, or be empty for the default.`;
    return v ?? 0;
  };
  const micro = pct("microCompactAt", "Clearing old tool output");
  const full = pct("compactAt", "Summarising older turns");
  if (!errors.microCompactAt && !errors.compactAt) {
    const m = micro || DEFAULT_MICRO_COMPACT_AT;
    const f = full || DEFAULT_COMPACT_AT;
    if (f <= m) errors.compactAt = `Summarising older turns must start above clearing old tool output (${m}%), which is tried first.`;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { context: { window: window ?? 0, microCompactAt: micro, compactAt: full } };
}

/** Where this session's window comes from, from the header gauge's last reading. */
function nowNote(use?: ContextUse): string {
  if (!use || use.window <= 0) return "";
  const src = use.windowSource ? windowSources[use.windowSource] : undefined;
  return ` This session: ${n(use.window)} tokens${src ? `, ${src}` : ""}.`;
}

/**
 * The model's context window and when Gatehouse makes room in it: old tool
 * output cleared first, then older turns summarised. Saved with the rest of
 * the form; they apply to sessions started after the save.
 */
export function ContextFields({ id, value, errors, use, onChange, disabled }: {
  id: string; value: ContextText; errors: ContextErrors; use?: ContextUse; onChange: (t: ContextText) => void; disabled?: boolean;
}) {
  const field = (key: keyof ContextText, label: string, placeholder: string, note: string) => {
    const err = errors[key];
    return (
      <>
        <label htmlFor={`${id}-ctx-${key}`}>{label}</label>
        <input id={`${id}-ctx-${key}`} inputMode="numeric" value={value[key]} placeholder={placeholder}
          aria-invalid={err ? true : undefined} aria-describedby={`${id}-ctx-${key}-note`}
          onChange={(e) => onChange({ ...value, [key]: e.target.value })} />
        <p id={`${id}-ctx-${key}-note`} className={err ? "field-error" : "field-note"}>{err ?? note}</p>
      </>
    );
  };
  return (
    <fieldset className="context-fields" disabled={disabled}>
      <legend>Context window</legend>
      {field("window", "Context window (tokens)", "detect from the server",
        "Empty: detect it. The model server's figure, or Gatehouse's table of known models, wins when there is one; this is used only when " +
          `neither knows the model (else 128,000 is assumed).${nowNote(use)}`)}
      {field("microCompactAt", "Clear old tool output at (% of the window)", String(DEFAULT_MICRO_COMPACT_AT),
        `Empty: ${DEFAULT_MICRO_COMPACT_AT}%. Old tool output is replaced in what the model is sent by a line saying how to get it again.`)}
      {field("compactAt", "Summarise older turns at (% of the window)", String(DEFAULT_COMPACT_AT),
        `Empty: ${DEFAULT_COMPACT_AT}%. Must be above the clearing threshold. Older turns are sent as a checkpoint summary; the transcript keeps them.`)}
      <p className="field-note">These apply to sessions started after you save.</p>
    </fieldset>
  );
}
