import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { GatehouseEvent } from "../bridge";
import type { TabInfo, TabsBackend } from "../bridge/tabs";
import "./SessionTabs.css";

/** Events after which a tab's state (running, waiting, gone) may have changed. */
const tabEvents = new Set<GatehouseEvent["type"]>(["turn.started", "turn.stopped", "approval.requested", "approval.resolved", "question.asked", "question.resolved", "fs.changed", "watch.degraded"]);

/** Whether e may change a tab: one of tabEvents, or an ask_user question asked or answered (it waits as an approval does). */
function changesTab(e: GatehouseEvent): boolean {
  if (tabEvents.has(e.type)) return true;
  return (e.type === "tool.started" || e.type === "tool.finished") && e.payload.tool === "ask_user";
}

/** How often the list is asked again anyway: a folder deleted behind the window's back sends nothing. */
const pollMs = 2000;

/**
 * The open sessions, asked again after every event that may change one
 * (of any session: a background tab's approval is one) and every pollMs.
 */
export function useTabs(api: TabsBackend | undefined, onEvent: (h: (e: GatehouseEvent) => void) => () => void, shownId: string) {
  const [list, setList] = useState<TabInfo[]>([]);
  const asks = useRef(0);
  const refresh = useCallback(async () => {
    if (!api) return;
    const n = ++asks.current;
    try {
      const l = await api.list();
      if (n === asks.current) setList(l);
    } catch {
      // Keep what is shown; the next event or poll asks again.
    }
  }, [api]);
  useEffect(() => {
    if (!api) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), 50);
    };
    const off = onEvent((e) => changesTab(e) && soon());
    const poll = setInterval(() => void refresh(), pollMs);
    return () => {
      off();
      clearInterval(poll);
      clearTimeout(timer);
    };
  }, [api, onEvent, refresh]);
  useEffect(() => void refresh(), [refresh, shownId]);
  return { list, refresh };
}

/**
 * The tab bar's state and actions: the open sessions, which are in the
 * background (store folds none of their events), and show / open / close,
 * each followed by onShown (the page draws the session now shown).
 */
export function useSessionTabs(api: TabsBackend | undefined, onEvent: (h: (e: GatehouseEvent) => void) => () => void,
  store: { setBackground(ids: Iterable<string>): void }, shownId: string, onShown: () => Promise<unknown>, onError: (e: string) => void) {
  const { list, refresh } = useTabs(api, onEvent, shownId);
  // Counts the switches the user made (show, open, close): what is keyed on
  // it (the process panel) starts over with the session shown.
  const [switches, setSwitches] = useState(0);
  const background = useMemo(() => new Set(list.filter((t) => !t.current && t.id).map((t) => t.id)), [list]);
  useEffect(() => store.setBackground(background), [store, background]);
  const run = useCallback(async (step: () => Promise<unknown>, shown?: string) => {
    // The tab to be shown stops being background before its snapshot loads.
    if (shown !== undefined) store.setBackground(list.filter((t) => t.id && t.id !== shown).map((t) => t.id));
    try {
      await step();
      setSwitches((n) => n + 1);
      await onShown();
    } catch (e) {
      onError(String(e instanceof Error ? e.message : e));
    }
    await refresh();
  }, [list, store, onShown, onError, refresh]);
  return {
    list, background, refresh, switches,
    shown: list.find((t) => t.current),
    show: (id: string) => void run(() => api!.show(id), id),
    create: () => run(() => api!.create(), ""),
    close: (id: string) => void run(() => api!.close(id)),
  };
}

/** The tab's name as a screen reader hears it: its state in words. */
export function tabLabel(t: TabInfo): string {
  const parts = [`Session ${t.name}`];
  if (t.title) parts.push(t.title);
  if (t.gone) parts.push("folder gone");
  else if (t.waiting > 0) parts.push(`${t.waiting} waiting for you`);
  else if (t.running) parts.push("running");
  return parts.join(", ");
}

function dot(t: TabInfo): string {
  if (t.gone) return "gone";
  if (t.waiting > 0) return "waiting";
  return t.running ? "running" : "idle";
}

/**
 * The tab bar of the sessions open at once (shown from two on): a state
 * dot each (running, waiting for you, idle, folder gone) and a badge with
 * the approvals waiting, so a waiting background session is one click away
 * from its dialog.
 */
export function SessionTabs({ list, onShow, onNew, onClose }: {
  list: readonly TabInfo[];
  onShow: (id: string) => void;
  onNew: () => void;
  onClose: (id: string) => void;
}) {
  if (list.length < 2) return null;
  const shown = list.find((t) => t.current);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const tabs = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const i = tabs.indexOf(document.activeElement as HTMLButtonElement);
    tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length]?.focus();
    e.preventDefault();
  };
  return (
    <div className="session-tabs">
      <div role="tablist" aria-label="Open sessions" onKeyDown={onKeyDown}>
        {list.map((t, i) => (
          <button key={t.id || `shown-${i}`} type="button" role="tab" aria-selected={t.current} tabIndex={t.current ? 0 : -1}
            aria-label={tabLabel(t)} title={t.workspace} className={`session-tab${t.current ? " current" : ""}`}
            onClick={() => !t.current && t.id && onShow(t.id)}>
            <span className={`tab-dot ${dot(t)}`} aria-hidden />
            <span className="tab-name">{t.name}</span>
            {t.title && <span className="tab-title">{t.title}</span>}
            {t.gone ? <span className="tab-badge gone" aria-hidden>folder gone</span>
              : t.waiting > 0 && <span className="tab-badge" aria-hidden>{t.waiting} waiting</span>}
          </button>
        ))}
      </div>
      <button type="button" className="secondary" onClick={onNew} title="A new session on this folder; the others go on">New session beside</button>
      {shown?.id && <button type="button" className="secondary" onClick={() => onClose(shown.id)}
        title="Ends this session: its turn is cancelled and its processes are stopped">Close this session</button>}
    </div>
  );
}

/**
 * What the shown tab's folder means for its session: gone (it takes no
 * message), or shared with other open sessions, whose changes show up here.
 */
export function TabNotice({ tab, onClose }: { tab?: TabInfo; onClose: (id: string) => void }) {
  if (!tab) return null;
  if (tab.gone) {
    return (
      <div className="banner error tab-notice" role="alert">
        {tab.gone}
        {tab.id && <button type="button" className="secondary" onClick={() => onClose(tab.id)}>Close this session</button>}
      </div>
    );
  }
  if (!tab.sharedWith?.length) return null;
  const others = tab.sharedWith.join(", ");
  return (
    <div className="banner tab-notice" role="note" aria-label="Shared folder">
      {tab.sharedWith.length === 1 ? `Session ${others} also works in this folder` : `Sessions ${others} also work in this folder`}
      : its changes show up here, and a dialog whose file it changes says so before anything is written. A worktree session keeps them apart.
    </div>
  );
}
