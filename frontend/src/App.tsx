import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { AppState, ApprovalMode, ApprovalRequestedPayload, Backend, BudgetLimit, DiagnosticsUpdatedPayload, Submission } from "./bridge";
import { ImagesContext } from "./components/images";
import { Header } from "./components/Header";
import { ModelMenu } from "./components/ModelMenu";
import { Chat } from "./components/Chat";
import { ChatActionsContext } from "./components/ChatActions";
import { Settings, type SectionId, type SettingsDeps } from "./components/Settings";
import { SidePanel } from "./components/SidePanel";
import { useSidePanels } from "./components/panels";
import { ProblemsPanel } from "./components/ProblemsPanel";
import { errorsByPath, useProblems } from "./components/problems";
import { ServerQuestionHost } from "./components/ServerQuestion";
import { ApprovalHost } from "./components/ApprovalHost";
import { ApprovalRules } from "./components/ApprovalRules";
import type { ApprovalBackend } from "./bridge/approval";
import { useTranscript, useTranscriptStore } from "./transcript/useTranscript";
import { ProcessPanel } from "./components/ProcessPanel";
import { TeamPanel } from "./components/team/TeamPanel";
import { asks } from "./team/model";
import type { ProcessBackend } from "./bridge/processes";
import type { SessionsBackend } from "./bridge/sessions";
import type { ReviewBackend } from "./bridge/review";
import type { LocalServer } from "./bridge/localModels";
import { SessionsMenu } from "./components/SessionsMenu";
import { ExportDialog } from "./components/ExportDialog";
import { ContextGauge, lastContextUse, useNextWindow } from "./components/ContextGauge";
import { FileTree } from "./components/FileTree";
import { SessionCost } from "./components/SessionCost";
import { BudgetBadge } from "./components/BudgetBadge";
import { HelpOverlay } from "./components/HelpOverlay";
import { useShortcuts } from "./components/shortcuts";
import { turnModels, type TurnPrices } from "./components/cost";
import { loadRich } from "./rich";
import type { FilesBackend } from "./bridge/files";
import type { LeftoverBackend, SandboxBackend } from "./bridge/sandbox";
import type { McpBackend } from "./bridge/mcp";
import type { AgentsTrustBackend, TrustedFoldersBackend } from "./bridge/agents";
import type { CommandsTrustBackend } from "./bridge/commands";
import type { PolicyBackend } from "./bridge/policy";
import { AgentsTrust } from "./components/AgentsTrust";
import { CommandsTrust } from "./components/CommandsTrust";
import { SkillsTrust } from "./components/SkillsTrust";
import { HooksTrust } from "./components/HooksTrust";
import type { WaitingHookFile } from "./bridge/hooksTrust";
import type { PendingSkillFile } from "./bridge/skills";
import type { TrustBackend } from "./bridge/agents";
import { McpPanel } from "./components/McpPanel";
import type { UndoBackend } from "./bridge/undo";
import { useUndo } from "./undo/useUndo";
import type { GitBackend } from "./bridge/git";
import { Changes } from "./components/changes/Changes";
import type { TabsBackend } from "./bridge/tabs";
import { SessionTabs, TabNotice, useSessionTabs } from "./components/SessionTabs";
import { skillsBackend } from "./bridge/skills";
import { hooksBackend } from "./bridge/hooks";
import { languagesBackend } from "./bridge/languages";

/** Sets the page's theme: light, dark, or anything else for the system's. */
export function applyTheme(theme: string) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/** The side panels and their widths before any drag; Servers only with an MCP backend and a folder, Team only while the session has teams on. */
function panelDefaults(servers: boolean, team: boolean): Record<string, number> {
  return { files: 260, ...(servers ? { servers: 360 } : {}), ...(team ? { team: 400 } : {}), problems: 320, processes: 440 };
}

const autoNotice = "This window started in auto mode: tool calls run without asking you first. The workspace boundary still holds. Change the mode with Approval in the header.";

export function App({ backend, processes, sessions, localModels, files, approvals, mcp, initialState, sandbox, leftovers, undo: undoApi, agentsTrust, commandsTrust, skillsTrust, hooksTrust, trusted, git, policy, tabs: tabsApi, review }: {
  backend: Backend;
  /** The frame's state when the page had it before mounting (main.tsx): the first render is then the real frame. */
  initialState?: AppState;
  approvals?: ApprovalBackend;
  files?: FilesBackend;
  processes?: ProcessBackend;
  sessions?: SessionsBackend;
  localModels?: () => Promise<LocalServer[]>;
  /** The sandbox block of Settings. */
  sandbox?: SandboxBackend;
  /** What a crashed run left running, in the process panel. */
  leftovers?: LeftoverBackend;
  mcp?: McpBackend;
  /** Trust for the workspace's .gatehouse/agents/ (absent: no prompt). */
  agentsTrust?: AgentsTrustBackend;
  /** The workspace's own slash commands waiting for trust. */
  commandsTrust?: CommandsTrustBackend;
  /** The workspace's skills waiting for trust (absent: no banner). */
  skillsTrust?: TrustBackend<PendingSkillFile>;
  /** Trust for the workspace's .gatehouse/hooks.json and its scripts (absent: no prompt). */
  hooksTrust?: TrustBackend<WaitingHookFile>;
  /** Settings → Trusted folders. */
  trusted?: TrustedFoldersBackend;
  /** Settings → Permissions: standing rules and the audit log. */
  policy?: PolicyBackend;
  undo?: UndoBackend;
  /** The Changes view's git (absent: no Changes button). */
  git?: GitBackend;
  /** Sessions open at once, one tab each (absent: one session). */
  tabs?: TabsBackend;
  /** Review with the model in the Changes view, and Sessions → Export (absent: neither). */
  review?: ReviewBackend;
}) {
  const [state, setState] = useState<AppState | null>(initialState ?? null);
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Settings, when open: the section asked for (n changes on every ask).
  const [settingsAt, setSettingsAt] = useState<{ section: SectionId; n: number } | null>(null);
  const openSettings = useCallback((section?: SectionId) =>
    setSettingsAt((at) => ({ section: section ?? at?.section ?? "model", n: (at?.n ?? 0) + 1 })), []);
  const readySent = useRef(false);
  // The first frame is drawn: the closed side panels' content (file tree, servers, processes) mounts now, hidden.
  const [drawn, setDrawn] = useState(false);
  // The mode the window started in: a window that starts in auto says so once.
  const startMode = useRef<string | null>(null);
  if (state && startMode.current === null) startMode.current = state.approvalMode;
  const store = useTranscriptStore(backend);
  const transcript = useTranscript(store);

  useEffect(() => {
    if (!initialState) backend.state().then(setState, (e) => setError(String(e)));
  }, [backend, initialState]);

  // Which file each agent came from, for the nested child views; asked again per session.
  const [agentSources, setAgentSources] = useState<Record<string, string>>({});
  const [agentsTrusted, setAgentsTrusted] = useState(0);
  useEffect(() => {
    if (!transcript.sessionId) return;
    backend.agentDefinitions().then(
      (ds) => setAgentSources(Object.fromEntries(ds.map((d) => [d.name, d.source]))),
      () => setAgentSources({}),
    );
  }, [backend, transcript.sessionId, agentsTrusted]);

  const theme = state?.theme;
  useEffect(() => {
    if (theme !== undefined) applyTheme(theme);
  }, [theme]);

  // Tell the backend once the first real frame has been painted: asked for
  // as the frame is committed, before it paints (a layout effect; an effect
  // runs after the paint and would wait a frame more), so the second frame
  // callback runs right after the first frame with the state on screen.
  useLayoutEffect(() => {
    if (!state || readySent.current) return;
    readySent.current = true;
    requestAnimationFrame(() => {
      requestAnimationFrame(() => {
        void backend.ready();
        setDrawn(true);
        // Rich text (highlighter, markdown) was left out of the first frame; fetch it now.
        void loadRich();
      });
    });
  }, [state, backend]);

  const act = (p: Promise<AppState>) =>
    p.then((s) => {
      setState(s);
      setError(null);
    }, (e) => setError(String(e)));

  const chooseWorkspace = () =>
    act(backend.chooseWorkspace().then((s) => {
      void store.resync(); // a new folder closes the session
      return s;
    }));

  const submit = useCallback(async (message: Submission) => {
    const r = await backend.submit(message);
    if (r.queued) store.addQueued(message.text);
  }, [backend, store]);

  const cancel = useCallback(() => void backend.cancel(), [backend]);

  // The page draws the session now shown: its folder's frame and its transcript.
  const redraw = useCallback(() => backend.state().then((s) => {
    setState(s);
    setError(null);
    return store.resync();
  }), [backend, store]);
  const tabs = useSessionTabs(tabsApi, backend.onEvent, store, transcript.sessionId, redraw, setError);
  // The Problems panel hears the shown session's language servers.
  const shownSession = transcript.sessionId;
  const problemsFeed = useCallback((cb: (p: DiagnosticsUpdatedPayload) => void) =>
    backend.onEvent((e) => { if (e.type === "diagnostics.updated" && (!shownSession || e.sessionId === shownSession)) cb(e.payload); }), [backend, shownSession]);
  const problems = useProblems(problemsFeed);
  const fileErrors = useMemo(() => errorsByPath(problems), [problems]);
  const newSession = useMemo(() => sessions && (() => void sessions.create().then(() => store.resync(), (e) => setError(String(e)))), [sessions, store]);
  // The prices of the model in effect and of each model the session's turns ran on, read again whenever the
  // frame's state changes (a saved setting, a switched model) or a turn names a model not priced yet.
  const [prices, setPrices] = useState<TurnPrices | undefined>();
  const models = turnModels(transcript.items, transcript.children).join("\n");
  useEffect(() => {
    if (!state || state.needsSetup) return;
    let live = true;
    Promise.all([backend.getSettings(), backend.prices(models ? models.split("\n") : [])]).then(
      ([v, ps]) => live && setPrices({
        current: { price: v.price, source: v.priceSource },
        byModel: Object.fromEntries(ps.map((p) => [p.model, { price: p.price, source: p.source }])),
      }),
      () => live && setPrices(undefined),
    );
    return () => {
      live = false;
    };
  }, [backend, state, models]);
  const [ruleFocus, setRuleFocus] = useState<{ id: string; n: number } | undefined>();
  const showRule = useMemo(() => approvals && ((id: string) => setRuleFocus((f) => ({ id, n: (f?.n ?? 0) + 1 }))), [approvals]);
  const planActions = useMemo(() => ({
    approve: async (plan: string, mode: "safe" | "auto" | "manual") => {
      await backend.approvePlan(plan, mode);
      setState(await backend.state());
    },
    revise: async (note: string) => void (await backend.revisePlan(note)),
  }), [backend]);
  const slash = useMemo(() => ({
    list: backend.commands,
    plan: () => void act(backend.setApprovalMode("plan")),
    clear: newSession,
    experimental: async (name: string) => {
      if (name !== "teams") throw new Error(`No experiment "${name}": try /experimental teams`);
      await backend.teamsEnable();
      await store.resync(); // a session opened for it has no events yet
    },
  }), [backend, newSession, store]); // eslint-disable-line react-hooks/exhaustive-deps
  const mentions = useMemo(() => ({ candidates: backend.mentionCandidates }), [backend]);
  const undo = useUndo(undoApi, `${transcript.sessionId}:${transcript.items.length}`, files?.onFsChanged);
  const actions = useMemo(() => ({ openURL: backend.openURL, openSettings, newSession, copy: backend.copyText, showRule, prices,
    compact: backend.compact, undoCompact: backend.undoCompact, undo: undo.actions, plan: planActions, answer: backend.answerQuestion,
    readResource: backend.readResource, allowDomain: sandbox?.allowDomain, allowDomainAlways: sandbox?.allowDomainAlways,
    reviewTurn: review && git ? (turnId: string) => { setReviewTurn(turnId); setChangesOpen(true); } : undefined,
    raiseBudget: async (limit: BudgetLimit) => {
      await backend.raiseBudget(limit);
      await submit({ text: "Continue." });
    } }), [backend, openSettings, newSession, showRule, prices, undo.actions, planActions, sandbox, submit, review, git]);
  const [help, setHelp] = useState(false);
  // The Changes view, in place of the chat while open; read again on every change on disk.
  const [changesOpen, setChangesOpen] = useState(false);
  // A turn's Review…: the Changes view opens on the Review view of that turn's changes.
  const [reviewTurn, setReviewTurn] = useState<string | null>(null);
  const [fsTick, setFsTick] = useState(0);
  useEffect(() => (changesOpen ? files?.onFsChanged(() => setFsTick((n) => n + 1)) : undefined), [changesOpen, files]);
  const [findSignal, setFindSignal] = useState(0);
  useShortcuts({
    // Never from the keyboard while a turn runs: switching would stop it.
    newSession: state?.workspace && transcript.turnId === "" ? newSession : undefined,
    openSettings: () => openSettings(),
    focusComposer: () => document.querySelector<HTMLTextAreaElement>("textarea[aria-label='Message']")?.focus(),
    find: () => setFindSignal((n) => n + 1),
    toggleHelp: () => setHelp((h) => !h),
  });
  const contextUse = useMemo(() => lastContextUse(transcript.items), [transcript.items]);
  const showServers = !!(mcp && state?.workspace);
  const team = transcript.team?.enabled ? transcript.team : undefined;
  const { props: panelProps, setOpen: setPanelOpen } = useSidePanels(panelDefaults(showServers, !!team), state?.panelWidths,
    useCallback((id: string, w: number) => void backend.setPanelWidth(id, w).catch(() => {}), [backend]));
  const onProcessStarted = useCallback(() => setPanelOpen("processes", true), [setPanelOpen]);
  // The Team panel opens when the session turns teams on and when a teammate starts waiting for you: a
  // teammate's dialog does not open on its own, its "Answer" in the panel (or its name in another dialog) does.
  const [approvalFront, setApprovalFront] = useState<string | undefined>();
  const teammateAsks = useCallback((a: ApprovalRequestedPayload) => !!team?.teammates?.some((m) => asks(m, a)), [team]);
  const teamWaiting = transcript.pendingApprovals.filter(teammateAsks).length;
  const approvalShown = transcript.pendingApprovals.some((a) => a.approvalId === approvalFront || !teammateAsks(a));
  useEffect(() => setPanelOpen("team", !!team), [setPanelOpen, !!team]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => void (teamWaiting > 0 && setPanelOpen("team", true)), [setPanelOpen, teamWaiting]);
  const settingsDeps = useMemo<SettingsDeps>(() => ({ backend, vision: backend, budget: backend, localModels, sandbox, trusted, contextUse, git, policy,
    agents: state?.workspace ? backend.agentDefinitions : undefined,
    skills: state?.workspace ? skillsBackend : undefined,
    hooks: hooksBackend,
    languages: languagesBackend,
    showPanel: showServers ? (id: "servers") => (setSettingsAt(null), setPanelOpen(id, true)) : undefined,
  }), [backend, localModels, sandbox, trusted, contextUse, git, policy, state?.workspace, showServers, setPanelOpen]);
  // Before the first request the gauge shows the window the next one will have.
  const nextWindow = useNextWindow(state?.workspace && !state.needsSetup && !contextUse ? backend.contextWindow : undefined, state?.model ?? "");

  if (!state) {
    return (
      <div className="loading" role="status">
        {error ?? "Starting Gatehouse…"}
      </div>
    );
  }

  const settingsOpen = state.needsSetup || settingsAt !== null;
  const waiting = transcript.pendingApprovals[0];
  return (
    <ChatActionsContext.Provider value={actions}>
      <div className="app">
        <Header
          state={state}
          onChooseWorkspace={chooseWorkspace}
          onModeChange={(m: ApprovalMode) => act(backend.setApprovalMode(m))}
          onOpenSettings={openSettings}
          model={
            <ModelMenu backend={backend} model={state.model} busy={transcript.turnId !== ""} onChanged={(s) => {
              setState(s);
              setError(null);
            }} onOpenSettings={() => openSettings("model")} />
          }
          sessions={sessions && (
            <SessionsMenu backend={sessions} hasWorkspace={!!state.workspace} busy={transcript.turnId !== ""} onSwitched={() => void store.resync()}
              beside={tabsApi && tabs.create} exportSession={review && (() => setExporting(true))} />
          )}
          gauge={state.workspace ? <ContextGauge use={contextUse} next={nextWindow} /> : undefined}
          cost={state.workspace ? (
            <>
              <SessionCost items={transcript.items} children={transcript.children} prices={prices} />
              <BudgetBadge budget={transcript.budget} />
            </>
          ) : undefined}
          changes={git && state.workspace ? (
            <button type="button" className="secondary header-changes" aria-pressed={changesOpen} onClick={() => { setChangesOpen((o) => !o); setReviewTurn(null); }}
              title="Review, stage and commit the workspace's git changes">Changes</button>
          ) : undefined}
          rules={approvals && <ApprovalRules api={approvals} refreshKey={`${transcript.sessionId}:${transcript.pendingApprovals.length}`} focus={ruleFocus} />}
        />
        <SessionTabs list={tabs.list} onShow={tabs.show} onNew={() => void tabs.create()} onClose={tabs.close} />
        {error && (
          <div className="banner error" role="alert">
            {error}
          </div>
        )}
        <TabNotice tab={tabs.shown} onClose={tabs.close} />
        {settingsOpen ? (
          <main className="body">
            <Settings
              deps={settingsDeps}
              firstRun={state.needsSetup}
              show={settingsAt ?? undefined}
              onSaved={() => void act(backend.state())}
              onClose={state.needsSetup ? undefined : () => setSettingsAt(null)}
              waiting={waiting && `${waiting.tool} is waiting for your answer. Its dialog comes back when you leave Settings.`}
            />
          </main>
        ) : changesOpen && git && state.workspace ? (
          <main className="body">
            <Changes key={`${state.workspace}:${reviewTurn ?? ""}`} git={git} refresh={`${fsTick}:${transcript.turnId}`} onClose={() => { setChangesOpen(false); setReviewTurn(null); }} image={files?.image} errors={fileErrors}
              onUndo={undo.actions ? (unit) => undo.actions!.open(unit, "undo") : undefined}
              onSwitched={() => void redraw().then(tabs.refresh)}
              review={review ? { backend: review, fix: (text) => backend.submit({ text }), target: reviewTurn ? { kind: "turn", ref: reviewTurn } : undefined } : undefined} />
          </main>
        ) : (
          <main className="body">
            <SidePanel side="left" title="Files" {...panelProps("files")} later={!drawn} emptyText={state.workspace ? "The file tree appears here." : "Choose a folder to start."}>
              {files && state.workspace ? <FileTree key={state.workspace} files={files} revert={undo.actions?.revert} /> : undefined}
            </SidePanel>
            <ImagesContext.Provider value={backend}>
            <Chat state={state} transcript={transcript} notice={startMode.current === "auto" ? autoNotice : undefined} onChooseWorkspace={chooseWorkspace} onSubmit={submit} onRetry={backend.retry} onCancel={cancel} findSignal={findSignal} slash={slash} mentions={mentions}
              onStopAgent={(id) => backend.stopSubagent(id)} agentSources={agentSources} />
            </ImagesContext.Provider>
            <div className="trust-prompts">
            {agentsTrust && state.workspace && (
              <AgentsTrust key={state.workspace} backend={agentsTrust} refresh={`${transcript.sessionId}:${transcript.turnId}`}
                onTrusted={() => setAgentsTrusted((n) => n + 1)} />
            )}
            {commandsTrust && state.workspace && (
              <CommandsTrust key={state.workspace} backend={commandsTrust} refresh={`${transcript.sessionId}:${transcript.turnId}`} />
            )}
            {skillsTrust && state.workspace && (
              <SkillsTrust key={state.workspace} backend={skillsTrust} refresh={`${transcript.sessionId}:${transcript.turnId}`} />
            )}
            {hooksTrust && state.workspace && (
              <HooksTrust key={state.workspace} backend={hooksTrust} refresh={`${transcript.sessionId}:${transcript.turnId}`} />
            )}
            </div>
            {mcp && showServers && (
              <SidePanel side="right" title="Servers" emptyText="MCP servers show up here." {...panelProps("servers")} later={!drawn}>
                <McpPanel key={state.workspace} backend={mcp} />
              </SidePanel>
            )}
            {team && (
              <SidePanel side="right" title="Team" emptyText="The session's teammates show up here." {...panelProps("team")} later={!drawn}>
                <TeamPanel team={team} transcripts={transcript.children} pending={transcript.pendingApprovals} onAnswer={setApprovalFront} onStop={backend.teamStop} />
              </SidePanel>
            )}
            <SidePanel side="right" title="Problems" emptyText="Language servers' problems show up here." {...panelProps("problems")} later={!drawn}>
              {state.workspace ? <ProblemsPanel key={state.workspace} subscribe={problemsFeed} files={files} /> : undefined}
            </SidePanel>
            <SidePanel side="right" title="Processes" emptyText="No processes yet. Processes the agent starts show up here." {...panelProps("processes")} later={!drawn}>
              {processes && <ProcessPanel key={tabs.switches} backend={processes} onProcessStarted={onProcessStarted} leftovers={leftovers} background={tabs.background} />}
            </SidePanel>
          </main>
        )}
        {help && <HelpOverlay onClose={() => setHelp(false)} />}
        {exporting && review && <ExportDialog backend={review} onClose={() => setExporting(false)} />}
        {undo.dialog}
        {approvals && <ApprovalHost api={approvals} pending={transcript.pendingApprovals} mode={state.approvalMode} hidden={settingsOpen}
          front={approvalFront} onFront={setApprovalFront} held={teammateAsks}
          session={tabs.list.length > 1 ? tabs.shown?.name : undefined} />}
        {!approvalShown && (
          <ServerQuestionHost pending={transcript.pendingQuestions} answer={backend.answerServerQuestion} hidden={settingsOpen}
            session={tabs.list.length > 1 ? tabs.shown?.name : undefined} />
        )}
      </div>
    </ChatActionsContext.Provider>
  );
}
