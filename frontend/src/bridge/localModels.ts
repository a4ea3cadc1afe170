// The first-run screen's look for model servers on this machine.
import * as App from "./wailsjs/go/gui/App";

/** An OpenAI-compatible server found on loopback (Ollama, LM Studio). */
export interface LocalServer {
  /** The program: "Ollama", "LM Studio". */
  name: string;
  /** What to save as the base URL. */
  baseURL: string;
  /** The models it lists; empty when none is loaded. */
  models: string[];
}

/** Looks for local servers; answers within about two seconds, [] when none. */
export const detectLocalModels = async (): Promise<LocalServer[]> =>
  ((await App.DetectLocalModels()) ?? []).map((s) => ({ name: s.name, baseURL: s.baseURL, models: s.models ?? [] }));
