// A fake backend for unit tests: the Backend surface with vi.fn()s, and
// emit() to push events as the Go side would.
import { vi } from "vitest";
import type { BudgetLimits, AgentDefinition, AttachResult, ModelVision, SlashCommand, Submission, AppState, ApprovalMode, Backend, ConnectionResult, GatehouseEvent, SettingsInput, Snapshot, SettingsView } from "../bridge";

export function fakeBackend(initial: Partial<AppState> = {}, snapshot: Partial<Snapshot> = {}) {
  let state = {
    version: "1.2.3", workspace: "/tmp/proj", workspaceName: "proj", approvalMode: "safe", needsSetup: false, model: "fake-model", theme: "system",
    ...initial,
  } as AppState;
  const handlers = new Set<(e: GatehouseEvent) => void>();
  let budget: BudgetLimits = {};
  let settings: SettingsView = {
    baseURL: "http://127.0.0.1:1/v1", model: "fake-model", hasKey: true, theme: "system", api: "chat",
    sources: { baseURL: "saved", apiKey: "saved", model: "saved", api: "default" },
    price: { inputPerMTok: 0, outputPerMTok: 0 }, priceSource: "local", context: { window: 0, microCompactAt: 0, compactAt: 0 },
  };
  const b = {
    state: vi.fn(async () => state),
    ready: vi.fn(async () => {}),
    chooseWorkspace: vi.fn(async () => state),
    setApprovalMode: vi.fn(async (m: ApprovalMode) => (state = { ...state, approvalMode: m } as AppState)),
    submit: vi.fn(async (_message: Submission) => ({ queued: false })),
    attachImage: vi.fn(async (name: string, data64: string): Promise<AttachResult> => ({
      image: { id: "a".repeat(64), mime: "image/png", name, width: 4, height: 3, origWidth: 4, origHeight: 3, origBytes: data64.length, bytes: data64.length },
    })),
    attachDropped: vi.fn(async (_token: string): Promise<AttachResult> => ({
      image: { id: "c".repeat(64), mime: "image/png", name: "dropped.png", width: 4, height: 3, origWidth: 4, origHeight: 3, origBytes: 9, bytes: 9 },
    })),
    forgetDropped: vi.fn(async (_token: string) => {}),
    markModelVision: vi.fn(async (_model: string, _sees: boolean) => {}),
    modelVision: vi.fn(async (): Promise<ModelVision> => ({ model: state.model, canSee: false, source: "unknown" })),
    imageData: vi.fn(async (_id: string) => "data:image/png;base64,iVBORw0KGgo="),
    approvePlan: vi.fn(async (_plan: string, m: ApprovalMode) => { state = { ...state, approvalMode: m } as AppState; return { queued: false }; }),
    revisePlan: vi.fn(async (_note: string) => ({ queued: false })),
    answerQuestion: vi.fn(async (_callId: string, _answer: string) => {}),
    answerServerQuestion: vi.fn(async (_id: string, _action: string, _values: Record<string, unknown>) => {}),
    commands: vi.fn(async (): Promise<SlashCommand[]> => [
      { name: "compact", description: "Compact", origin: "built-in", source: "built-in" },
      { name: "review", description: "Review a file", origin: "user", source: "/c/review.md" },
    ]),
    readResource: vi.fn(async (server: string, uri: string) => ({ server, uri, contents: [{ uri, mimeType: "text/plain", text: `text of ${uri}` }] })),
    mentionCandidates: vi.fn(async (q: string) => ["src/main.go", "src/util.go", "src/"].filter((p) => p.startsWith(q)).map((p) => ({ mention: p, label: p }))),
    retry: vi.fn(async () => ({ queued: false })),
    cancel: vi.fn(async () => {}),
    compact: vi.fn(async () => {}),
    undoCompact: vi.fn(async () => {}),
    queued: vi.fn(async () => [] as string[]),
    agentDefinitions: vi.fn(async () => [] as AgentDefinition[]),
    stopSubagent: vi.fn(async (_id: string) => {}),
    teamsEnable: vi.fn(async () => ({ enabled: true, maxTeammates: 4, teammates: [], board: [], messages: [], notices: [] })),
    teamStop: vi.fn(async (_name: string) => {}),
    snapshot: vi.fn(async (): Promise<Snapshot> => ({
      sessionId: "", turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0, ...snapshot,
    })),
    getSettings: vi.fn(async () => settings),
    // A model's price: the settings' for the model in effect, none for another.
    prices: vi.fn(async (models: string[]) => models.map((m) => m === settings.model
      ? { model: m, price: settings.price, source: settings.priceSource }
      : { model: m, price: { inputPerMTok: 0, outputPerMTok: 0 }, source: "" as const })),
    saveSettings: vi.fn(async (s: SettingsInput) => {
      settings = { ...settings, baseURL: s.baseURL, model: s.model, api: s.api };
      if (s.price) settings = { ...settings, price: s.price, priceSource: "saved" };
      if (s.context) settings = { ...settings, context: s.context };
      if (s.clearPrice) settings = { ...settings, price: { inputPerMTok: 0, outputPerMTok: 0 }, priceSource: "local" };
      state = { ...state, needsSetup: false, model: s.model } as AppState;
      return settings;
    }),
    testConnection: vi.fn(async (_s: SettingsInput): Promise<ConnectionResult> => ({ status: "reachable", message: "Connected." })),
    listModels: vi.fn(async (): Promise<string[]> => ["fake-model", "other-model"]),
    setModel: vi.fn(async (name: string) => {
      settings = { ...settings, model: name };
      return (state = { ...state, model: name } as AppState);
    }),
    contextWindow: vi.fn(async () => ({ tokens: 128000, source: "default" })),
    getBudget: vi.fn(async () => ({ limits: budget, dayTokens: 0, dayCost: 0 })),
    saveBudget: vi.fn(async (l: BudgetLimits) => ({ limits: (budget = l), dayTokens: 0, dayCost: 0 })),
    raiseBudget: vi.fn(async (_limit: string) => ({ sessionTokens: 0, sessionCost: 0, dayTokens: 0, dayCost: 0, limits: budget })),
    setPanelWidth: vi.fn(async (_panel: string, _width: number) => {}),
    openURL: vi.fn(),
    copyText: vi.fn(async (_text: string) => {}),
    onEvent: vi.fn((h: (e: GatehouseEvent) => void) => {
      handlers.add(h);
      return () => handlers.delete(h);
    }),
  };
  let seq = snapshot.lastSeq ?? 0;
  const emit = (type: GatehouseEvent["type"], payload: unknown, turnId = "t1", sessionId = "s1") => {
    seq++;
    for (const h of handlers) h({ seq, sessionId, turnId, type, payload } as GatehouseEvent);
  };
  /** Loses the next event, as a dropped one would: the page then sees a gap and loads the snapshot again. */
  const lose = () => {
    seq++;
  };
  return Object.assign(b as typeof b & Backend, { emit, lose });
}

/** Gives the virtualised transcript a viewport in jsdom, which lays nothing out. */
export function giveLayout() {
  const proto = HTMLElement.prototype;
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 800, right: 800, width: 800, height: 800, toJSON() {} };
  proto.getBoundingClientRect = function () {
    return rect as DOMRect;
  };
  for (const p of ["offsetHeight", "offsetWidth", "clientHeight", "clientWidth"]) {
    Object.defineProperty(proto, p, { configurable: true, get: () => 800 });
  }
}
