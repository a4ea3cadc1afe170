// The only module that imports the generated Wails bindings. Components talk
// to the backend through these functions, so tests can run the UI against the
// real backend (e2e) and unit tests can swap this module out.
import { App } from "./bound.gen";
import { afterFirstFrame, frameDrawn } from "./paint";
import { BrowserOpenURL, EventsOn } from "./wailsjs/runtime/runtime";
import { copyText } from "./clipboard";
import {
  WAILS_EVENT_NAME,
  type ApprovalMode,
  type AppState,
  type AttachResult,
  type BudgetLimit,
  type BudgetLimits,
  type BudgetState,
  type BudgetView,
  type Command,
  type ConnectionResult,
  type Definition,
  type GatehouseEvent,
  type MentionCandidate,
  type McpResourceRead,
  type ModelPrice,
  type SettingsInput,
  type SettingsView,
  type Snapshot,
  type Submission,
  type TeamState,
  type VisionView,
} from "./protocol.gen";

export type * from "./protocol.gen";
export { DEFAULT_COMPACT_AT, DEFAULT_MICRO_COMPACT_AT, MIN_COMPACT_AT } from "./protocol.gen";

/** An agent a session may delegate to (internal/agents.Definition). */
export type AgentDefinition = Definition;
/** A "/" entry of the composer (internal/slash.Command): origin says who offers it, source where from. */
export type SlashCommand = Command;
/** Whether a model sees: from the server's /models, Gatehouse's table, the user's setting, or unknown. */
export type ModelVision = VisionView;
/** The protocol spoken to the model server: Chat Completions (any OpenAI-compatible server) or OpenAI's Responses API. */
export type ModelAPI = "chat" | "responses";

export const backend = {
  state: (): Promise<AppState> => App.State(),
  ready: (): Promise<void> => {
    frameDrawn();
    return App.Ready();
  },
  chooseWorkspace: (): Promise<AppState> => App.ChooseWorkspace(),
  setApprovalMode: (mode: ApprovalMode): Promise<AppState> => App.SetApprovalMode(mode),

  /**
   * The one way to send a message: starts a turn, or queues it while one runs. The text, or the "/" entry's
   * expansion of its args when it names one, with its @-mentions attached and its pictures; rejects naming what
   * was refused (nothing is sent then).
   */
  submit: (message: Submission): Promise<{ queued: boolean }> => App.Submit(message),
  /** Sends the last turn's message again as a turn that replaces it in what the model is sent. */
  retry: (): Promise<{ queued: boolean }> => App.Retry(),
  /** Checks that the model sees, then prepares and saves an image (base64 data; name "" for a paste). */
  attachImage: (name: string, data64: string): Promise<AttachResult> =>
    App.AttachImage(name, data64),
  /** Attaches again, once, a dropped file the model refused (the token of its images.dropped event or last refusal). */
  attachDropped: (token: string): Promise<AttachResult> => App.AttachDropped(token),
  /** Forgets a refused drop the user removed. */
  forgetDropped: (token: string): Promise<void> => App.ForgetDropped(token),
  /** Saves whether a model the server and Gatehouse's table say nothing of can see images. */
  markModelVision: (model: string, sees: boolean): Promise<void> => App.MarkModelVision(model, sees),
  /** Whether the model in effect sees images, and how that is known. */
  modelVision: (): Promise<ModelVision> => App.ModelVision(),
  /** A saved image as a data URL. */
  imageData: (id: string): Promise<string> => App.ImageData(id),
  /** Approves the plan the model proposed: switches to mode (not plan) and starts the turn that carries it out. */
  approvePlan: (plan: string, mode: ApprovalMode): Promise<{ queued: boolean }> => App.ApprovePlan(plan, mode),
  /** The composer's "/" entries: the ones /name runs (built-ins first), then the shadowed ones (shadowedBy). */
  commands: async (): Promise<SlashCommand[]> => (await afterFirstFrame(App.Commands)) ?? [],
  /** Workspace files and folders (ending in /) matching query fuzzily, for the composer's @ picker. */
  mentionCandidates: async (query: string): Promise<MentionCandidate[]> => (await App.MentionCandidates(query)) ?? [],
  readResource: (server: string, uri: string): Promise<McpResourceRead> => App.McpReadResource(server, uri),
  /** Answers the model's ask_user question of call callId. */
  answerQuestion: (callId: string, answer: string): Promise<void> => App.AnswerQuestion(callId, answer),
  /** Answers an MCP server's question waiting in the tab shown: accept with values, decline or cancel; rejects with why the values do not fit. */
  answerServerQuestion: (questionId: string, action: "accept" | "decline" | "cancel", values: Record<string, unknown>): Promise<void> =>
    App.AnswerServerQuestion("", questionId, action, values),
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
  agentDefinitions: async (): Promise<AgentDefinition[]> => (await afterFirstFrame(App.AgentDefinitions)) ?? [],
  /** Stops a background agent of the open session (its processes end with it). */
  stopSubagent: (id: string): Promise<void> => App.StopSubagent(id),
  /** Turns agent teams on for the open session (/experimental teams); team.enabled follows. */
  teamsEnable: (): Promise<TeamState> => App.TeamsEnable(),
  /** Stops one teammate; team.teammate follows with it stopped. */
  teamStop: (name: string): Promise<void> => App.TeamStop(name),
  /** The open session as of its last delivered event (see lastSeq). */
  snapshot: (): Promise<Snapshot> => App.Snapshot(),

  getSettings: (): Promise<SettingsView> => App.GetSettings(),
  /** Each model's price at the base URL in effect, for pricing every turn at the model that ran it. */
  prices: async (models: string[]): Promise<ModelPrice[]> => (await App.Prices(models)) ?? [],
  saveSettings: (s: SettingsInput): Promise<SettingsView> =>
    App.SaveSettings(s),
  testConnection: (s: SettingsInput): Promise<ConnectionResult> =>
    App.TestConnection(s),
  /** The ids of the models the configured server lists, sorted; rejects with the failure in words. */
  listModels: async (): Promise<string[]> => (await App.ListModels()) ?? [],
  /** Saves the model for the next turn (the running one keeps its own); rejects while --model names it. */
  setModel: (name: string): Promise<AppState> => App.SetModel(name),

  /** The context window the next turn will have (the gauge before the first turn); may ask the server, once per model. */
  contextWindow: (): Promise<{ tokens: number; source: string }> => afterFirstFrame(App.ContextWindow),
  /** Keeps the width a side panel was dragged to; the frame's state brings it back after a restart. */
  setPanelWidth: (panel: string, width: number): Promise<void> => App.SetPanelWidth(panel, width),

  /** Opens an http(s) link in the system browser, never in the app's window. */
  openURL: (url: string): void => {
    if (/^https?:\/\//i.test(url)) BrowserOpenURL(url);
  },

  /** Puts text on the system clipboard (the window's, through Wails). */
  copyText,

  /** The saved budget limits and the day's spend so far, every process of the user included. */
  getBudget: (): Promise<BudgetView> => App.GetBudget(),
  /** Saves the budget limits (0: none); a negative one is refused. */
  saveBudget: (l: BudgetLimits): Promise<BudgetView> => App.SaveBudget(l),
  /** Raises a limit that stopped a turn, for the open session only. */
  raiseBudget: (limit: BudgetLimit): Promise<BudgetState> => App.RaiseBudget(limit),

  /** Calls handler with every backend event, in seq order; returns the unsubscribe. */
  onEvent: (handler: (e: GatehouseEvent) => void): (() => void) =>
    EventsOn(WAILS_EVENT_NAME, (e: GatehouseEvent) => handler(e)),
};

export type Backend = typeof backend;

/** For each font stack, the family of it the window draws with ("" when none or not known). */
export const fontFamilies = (stacks: string[][]): Promise<string[]> => App.FontFamilies(stacks).then((r) => r ?? []);
