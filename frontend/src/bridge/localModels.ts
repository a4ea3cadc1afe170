// The first-run screen's look for model servers on this machine.
import { App } from "./bound.gen";
import type { LocalServer as Found } from "./protocol.gen";


/** An OpenAI-compatible server found on loopback (Ollama, LM Studio), its models never null. */
export type LocalServer = Omit<Found, "models"> & { models: string[] };

/** Looks for local servers; answers within about two seconds, [] when none. */
export const detectLocalModels = async (): Promise<LocalServer[]> =>
  ((await App.DetectLocalModels()) ?? []).map((s) => ({ name: s.name, baseURL: s.baseURL, models: s.models ?? [] }));
