// The only module that imports the generated Wails bindings. Components talk
// to the backend through these functions, so tests can run the UI against the
// real backend (e2e) and unit tests can swap this module out.
import * as App from "./wailsjs/go/gui/App";
import { BrowserOpenURL, EventsOn } from "./wailsjs/runtime/runtime";
import type { gui, protocol } from "./wailsjs/go/models";
import { copyText } from "./clipboard";
import { WAILS_EVENT_NAME, type ApprovalMode, type GatehouseEvent, type ImageRef, type Snapshot } from "./protocol.gen";

export type * from "./protocol.gen";
export { DEFAULT_COMPACT_AT, DEFAULT_MICRO_COMPACT_AT, MIN_COMPACT_AT } from "./protocol.gen";

/** The frame's state; its approval mode is the type generated from Go (protocol.ApprovalMode). */
export type AppState = Omit<gui.AppState, "approvalMode"> & { approvalMode: ApprovalMode };
// The binding types the field as a string; Go's type (protocol.ApprovalMode) holds it to the union.
const frame = (p: Promise<gui.AppState>): Promise<AppState> => p as Promise<AppState>;

/** Where a setting comes from: a command-line flag, the environment, the saved file, a default. */
/** An agent a session may delegate to (internal/agents.Definition). */
export interface AgentDefinition {
  name: string;
  description: string;
  source: string;
}

/** An entry of the @ picker: what the message carries (a path, a folder ending in /, session:ID) and what is shown. */
export interface MentionCandidate {
  mention: string;
  label: string;
}

/** A slash command of the composer (internal/usercmd.Command): source is "built-in" or its file. */
export interface SlashCommand {
  name: string;
  description: string;
  source: string;
}

export type SettingSource = "flag" | "env" | "saved" | "default" | "";

/** The protocol spoken to the model server: Chat Completions (any OpenAI-compatible server) or OpenAI's Responses API. */
export type ModelAPI = "chat" | "responses";

export interface SettingsView {
  baseURL: string;
  model: string;
  hasKey: boolean;
  theme: string;
  api: ModelAPI;
  sources: { baseURL: SettingSource; apiKey: SettingSource; model: SettingSource; api: SettingSource };
  /** The model's price and where it comes from: saved here, free on a local server, a built-in list price, or none. */
  price: Price;
  priceSource: PriceSource;
  /** The saved context window and compaction thresholds; 0 is "detect" and the defaults. */
  context: ContextLimits;
}

/** The context settings (settings.ContextLimits): a window in tokens, thresholds in percent of it; 0: detect, the default. */
export interface ContextLimits {
  window: number;
  microCompactAt: number;
  compactAt: number;
}

/** US dollars per million tokens. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

export type PriceSource = "saved" | "local" | "builtin" | "";

/** What the settings screen sends. An empty apiKey keeps the saved key; clearKey removes it. */
export interface SettingsInput {
  baseURL: string;
  model: string;
  apiKey: string;
  clearKey: boolean;
  theme: string;
  api: ModelAPI;
  /** Saved as the model's price; clearPrice removes a saved one. Neither: the price is kept. */
  price?: Price;
  clearPrice?: boolean;
  /** Replaces the context settings; omitted: they are kept. A bad value is refused. */
  context?: ContextLimits;
  /** Confirms sending the saved key to a base URL other than its own (the connection test never does otherwise). */
  sendKey: boolean;
}

/** An image the composer attached, or why the model in effect refuses it (canMark: the user may say it sees). */
export interface AttachResult {
  image?: ImageRef;
  refused?: string;
  model?: string;
  canMark?: boolean;
  /** A refused drop's token, for attachDropped. */
  token?: string;
}

/** Whether a model sees: from the server's /models, Gatehouse's table, the user's setting, or unknown (then it is sent no image). */
export interface ModelVision {
  model: string;
  canSee: boolean;
  source: "server" | "known_model" | "setting" | "unknown";
}

export type ConnectionStatus = "reachable" | "key_rejected" | "model_unknown" | "unreachable";

export interface ConnectionResult {
  status: ConnectionStatus;
  /** A sentence for the user. */
  message: string;
  kind?: string;
}

export const backend = {
  state: (): Promise<AppState> => frame(App.State()),
  ready: (): Promise<void> => App.Ready(),
  chooseWorkspace: (): Promise<AppState> => frame(App.ChooseWorkspace()),
  setApprovalMode: (mode: ApprovalMode): Promise<AppState> => frame(App.SetApprovalMode(mode)),

  /** Starts a turn with text, or queues it while one runs. */
  submit: (text: string): Promise<{ queued: boolean }> => App.Submit(text),
  /** Sends the last turn's message again as a turn that replaces it in what the model is sent. */
  retry: (): Promise<{ queued: boolean }> => App.Retry(),
  /** Starts (or queues) a turn with text and images the composer attached. */
  submitWithImages: (text: string, images: ImageRef[]): Promise<{ queued: boolean }> =>
    App.SubmitWithImages(text, images as unknown as protocol.ImageRef[]),
  /** Checks that the model sees, then prepares and saves an image (base64 data; name "" for a paste). */
  attachImage: (name: string, data64: string): Promise<AttachResult> =>
    App.AttachImage(name, data64) as unknown as Promise<AttachResult>,
  /** Attaches again, once, a dropped file the model refused (the token of its images.dropped event or last refusal). */
  attachDropped: (token: string): Promise<AttachResult> => App.AttachDropped(token) as unknown as Promise<AttachResult>,
  /** Forgets a refused drop the user removed. */
  forgetDropped: (token: string): Promise<void> => App.ForgetDropped(token),
  /** Saves whether a model the server and Gatehouse's table say nothing of can see images. */
  markModelVision: (model: string, sees: boolean): Promise<void> => App.MarkModelVision(model, sees),
  /** Whether the model in effect sees images, and how that is known. */
  modelVision: (): Promise<ModelVision> => App.ModelVision() as Promise<ModelVision>,
  /** A saved image as a data URL. */
  imageData: (id: string): Promise<string> => App.ImageData(id),
  /** Approves the plan the model proposed: switches to mode (not plan) and starts the turn that carries it out. */
  approvePlan: (plan: string, mode: ApprovalMode): Promise<{ queued: boolean }> => App.ApprovePlan(plan, mode),
  /** The composer's slash commands: built-ins, then the user's own files. */
  commands: async (): Promise<SlashCommand[]> => (await App.Commands()) ?? [],
  /** Sends the user's command name with args (its prompt with $ARGUMENTS replaced). */
  runCommand: (name: string, args: string): Promise<{ queued: boolean }> => App.RunCommand(name, args),
  /** Workspace files and folders (ending in /) matching query fuzzily, for the composer's @ picker. */
  mentionCandidates: async (query: string): Promise<MentionCandidate[]> => (await App.MentionCandidates(query)) ?? [],
  /** Sends text with the mentioned files (path or path:10-40) and folders attached; rejects naming a refused one. */
  /** Sends text with its @-mentions attached and its pictures, in one message. */
  submitMessage: (text: string, mentions: string[], images: ImageRef[]): Promise<{ queued: boolean }> =>
    App.SubmitMessage(text, mentions, images as never),
  /** Answers the model's ask_user question of call callId. */
  answerQuestion: (callId: string, answer: string): Promise<void> => App.AnswerQuestion(callId, answer),
  /** Asks the model, still in plan mode, to revise its plan as the note says. */
  revisePlan: (note: string): Promise<{ queued: boolean }> => App.RevisePlan(note),
  /** Stops the running turn (the model stream and any running tool). */
  cancel: (): Promise<void> => App.Cancel(),
  /** Replaces older turns by a checkpoint summary in what the model is sent; rejects while a turn runs. */
  compact: (): Promise<void> => App.Compact(),
  /** Undoes the last compaction, before the next turn. */
  undoCompact: (): Promise<void> => App.UndoCompact(),
  /** Messages waiting for the running turn to stop. */
  queued: async (): Promise<string[]> => (await App.Queued()) ?? [],
  /** The agents the open session may delegate to, with the file each came from ("built-in" for the built-ins). */
  agentDefinitions: async (): Promise<AgentDefinition[]> => (await App.AgentDefinitions()) ?? [],
  /** Stops a background agent of the open session (its processes end with it). */
  stopSubagent: (id: string): Promise<void> => App.StopSubagent(id),
  /** The open session as of its last delivered event (see lastSeq). */
  snapshot: (): Promise<Snapshot> => App.Snapshot() as unknown as Promise<Snapshot>,

  getSettings: (): Promise<SettingsView> => App.GetSettings() as unknown as Promise<SettingsView>,
  /** Each model's price at the base URL in effect, for pricing every turn at the model that ran it. */
  prices: async (models: string[]): Promise<{ model: string; price: Price; source: PriceSource }[]> =>
    ((await App.Prices(models)) ?? []).map((p) => ({ model: p.model, price: p.price, source: p.source as PriceSource })),
  saveSettings: (s: SettingsInput): Promise<SettingsView> =>
    App.SaveSettings(s as unknown as gui.SettingsInput) as unknown as Promise<SettingsView>,
  testConnection: (s: SettingsInput): Promise<ConnectionResult> =>
    App.TestConnection(s as unknown as gui.SettingsInput) as Promise<ConnectionResult>,
  /** The ids of the models the configured server lists, sorted; rejects with the failure in words. */
  listModels: async (): Promise<string[]> => (await App.ListModels()) ?? [],
  /** Saves the model for the next turn (the running one keeps its own); rejects while --model names it. */
  setModel: (name: string): Promise<AppState> => frame(App.SetModel(name)),

  /** The context window the next turn will have (the gauge before the first turn); may ask the server, once per model. */
  contextWindow: async (): Promise<{ tokens: number; source: string }> => App.ContextWindow(),
  /** Keeps the width a side panel was dragged to; the frame's state brings it back after a restart. */
  setPanelWidth: (panel: string, width: number): Promise<void> => App.SetPanelWidth(panel, width),

  /** Opens an http(s) link in the system browser, never in the app's window. */
  openURL: (url: string): void => {
    if (/^https?:\/\//i.test(url)) BrowserOpenURL(url);
  },

  /** Puts text on the system clipboard (the window's, through Wails). */
  copyText,

  /** Calls handler with every backend event, in seq order; returns the unsubscribe. */
  onEvent: (handler: (e: GatehouseEvent) => void): (() => void) =>
    EventsOn(WAILS_EVENT_NAME, (e: GatehouseEvent) => handler(e)),
};

export type Backend = typeof backend;
