import type { Price, SettingsView } from "../bridge";

/** The price fields as typed; both empty means "no price of my own". */
export interface PriceText {
  input: string;
  output: string;
  /** Set once the user typed in a field: only then is a price saved or cleared. */
  touched: boolean;
}

export const priceText = (v: SettingsView | null): PriceText =>
  v?.priceSource === "saved"
    ? { input: String(v.price.inputPerMTok), output: String(v.price.outputPerMTok), touched: false }
    : { input: "", output: "", touched: false };

/** What to send for the typed price: a price, a removal, or nothing; throws a sentence on bad input. */
export function priceInput(t: PriceText): { price?: Price; clearPrice?: boolean } {
  if (!t.touched) return {};
  if (t.input.trim() === "" && t.output.trim() === "") return { clearPrice: true };
  const n = (s: string, what: string) => {
    const v = Number(s.trim() === "" ? "0" : s.trim());
    if (!Number.isFinite(v) || v < 0) throw new Error(`The ${what} price is not a number of 0 or more: "${s}".`);
    return v;
  };
  return { price: { inputPerMTok: n(t.input, "input"), outputPerMTok: n(t.output, "output") } };
}

function note(v: SettingsView | null, model: string): string {
  if (!v || model !== v.model) return "Leave empty to use the list price of a common OpenAI model; local servers cost nothing.";
  const p = v.price;
  switch (v.priceSource) {
    case "saved":
      return "Your price. Empty both fields to go back to the default.";
    case "local":
      return "A local server: free unless you set a price.";
    case "builtin":
      return `List price of ${model}: $${p.inputPerMTok} in, $${p.outputPerMTok} out per million tokens. Set your own to override it.`;
    default:
      return `No price is known for ${model}: set one to see what turns cost.`;
  }
}

/** Price per million input and output tokens of the model named in the form. */
export function PriceFields({ id, view, model, value, onChange, disabled }: {
  id: string; view: SettingsView | null; model: string; value: PriceText; onChange: (t: PriceText) => void; disabled?: boolean;
}) {
  const ph = view?.priceSource === "builtin" && model === view.model ? view.price : undefined;
  return (
    <fieldset className="price-fields" disabled={disabled} aria-describedby={`${id}-price-note`}>
      <legend>Price of {model || "the model"} (US$ per million tokens)</legend>
      <label htmlFor={`${id}-price-in`}>Input</label>
      <input id={`${id}-price-in`} inputMode="decimal" value={value.input} placeholder={ph ? String(ph.inputPerMTok) : "0"}
        onChange={(e) => onChange({ ...value, input: e.target.value, touched: true })} />
      <label htmlFor={`${id}-price-out`}>Output</label>
      <input id={`${id}-price-out`} inputMode="decimal" value={value.output} placeholder={ph ? String(ph.outputPerMTok) : "0"}
        onChange={(e) => onChange({ ...value, output: e.target.value, touched: true })} />
      <p id={`${id}-price-note`} className="field-note">{note(view, model)}</p>
    </fieldset>
  );
}
