import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { ModelSection } from "./settings/ModelSection";
import { nothingToChange, settingsSections, type SectionId, type SettingsDeps } from "./settings/sections";
import "./Settings.css";

export { sameServer } from "./settings/ModelSection";
export type { SectionId, SettingsBackend, SettingsDeps } from "./settings/sections";

/**
 * Settings: a sidebar of sections (a vertical tab list: arrow keys, Home and
 * End move between sections) and the chosen section beside it. Every
 * section keeps its changes as a draft until its own Save and says when
 * they apply; a section visited once stays mounted, so switching sections
 * keeps what was typed. On first run it is the model section alone.
 */
export function Settings(props: {
  deps: SettingsDeps;
  firstRun: boolean;
  /** The section to show; n changes on every ask, so asking again for the shown one focuses it. */
  show?: { section: SectionId; n: number };
  /** After any section saved: the App reads its state again. */
  onSaved: () => void;
  onClose?: () => void;
  /** A request waits for an answer: its dialog is hidden while Settings is open. */
  waiting?: string;
}) {
  const { deps, onSaved } = props;
  const id = useId();
  const [active, setActive] = useState<SectionId>(props.show?.section ?? "model");
  const [visited, setVisited] = useState<ReadonlySet<SectionId>>(() => new Set([active]));
  const [dirty, setDirtyMap] = useState<Partial<Record<SectionId, boolean>>>({});
  const tabs = useRef(new Map<SectionId, HTMLButtonElement>());

  const select = useCallback((s: SectionId, focus: boolean) => {
    setActive(s);
    setVisited((v) => (v.has(s) ? v : new Set([...v, s])));
    if (focus) tabs.current.get(s)?.focus();
  }, []);
  // Opened (or asked again) at a section: show it and put focus on its tab.
  useEffect(() => {
    if (props.show) select(props.show.section, true);
    else tabs.current.get("model")?.focus();
  }, [props.show, select]);

  // Leaving Settings puts focus back where it was (or on the header's ⚙ when
  // that is gone, as the dialog that linked here is); a dialog that comes
  // back takes it after this, in its own layout effect.
  const firstRun = useRef(props.firstRun);
  firstRun.current = props.firstRun;
  useLayoutEffect(() => {
    const opener = document.activeElement;
    return () => {
      if (firstRun.current) return;
      const back = opener instanceof HTMLElement && opener.isConnected && opener !== document.body ? opener
        : document.querySelector<HTMLElement>('header button[aria-label="Settings"]');
      back?.focus();
    };
  }, []);

  const setters = useRef(new Map<SectionId, (d: boolean) => void>());
  const setDirtyOf = (s: SectionId) => {
    let f = setters.current.get(s);
    if (!f) {
      f = (d: boolean) => setDirtyMap((m) => (!!m[s] === d ? m : { ...m, [s]: d }));
      setters.current.set(s, f);
    }
    return f;
  };
  const unsaved = settingsSections.filter((s) => dirty[s.id]).map((s) => s.title);
  const close = props.onClose && (() => {
    if (unsaved.length === 0 || window.confirm(`Discard the unsaved changes in ${unsaved.join(" and ")}?`)) props.onClose?.();
  });

  const onTabKey = (e: KeyboardEvent, i: number) => {
    const n = settingsSections.length;
    const to = e.key === "ArrowDown" ? (i + 1) % n : e.key === "ArrowUp" ? (i - 1 + n) % n : e.key === "Home" ? 0 : e.key === "End" ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    select(settingsSections[to].id, true);
  };

  if (props.firstRun) {
    return (
      <section className="settings settings-first-run" aria-labelledby={`${id}-title`}>
        <div className="settings-page">
          <h1 id={`${id}-title`}>Set up a model</h1>
          <ModelSection deps={deps} firstRun setDirty={() => {}} onSaved={onSaved} goTo={() => {}} />
        </div>
      </section>
    );
  }
  return (
    <section className="settings" aria-labelledby={`${id}-title`}>
      <div className="settings-top">
        <h1 id={`${id}-title`}>Settings</h1>
        {close && <button type="button" className="secondary" onClick={close}>Close</button>}
      </div>
      {props.waiting && (
        <div className="settings-waiting" role="status">
          <span>{props.waiting}</span>
          {close && <button type="button" className="primary" onClick={close}>Back to the request</button>}
        </div>
      )}
      <div className="settings-layout">
        <div className="settings-nav" role="tablist" aria-orientation="vertical" aria-label="Settings sections">
          {settingsSections.map((s, i) => (
            <button key={s.id} type="button" role="tab" id={`${id}-tab-${s.id}`} aria-controls={`${id}-panel-${s.id}`}
              aria-selected={s.id === active} tabIndex={s.id === active ? 0 : -1}
              ref={(el) => void (el ? tabs.current.set(s.id, el) : tabs.current.delete(s.id))}
              onClick={() => select(s.id, false)} onKeyDown={(e) => onTabKey(e, i)}>
              {s.title}
              {dirty[s.id] && <span className="settings-dirty" aria-hidden>●</span>}
              {dirty[s.id] && <span className="visually-hidden"> (unsaved changes)</span>}
            </button>
          ))}
        </div>
        {settingsSections.filter((s) => visited.has(s.id)).map((s) => (
          <div key={s.id} role="tabpanel" id={`${id}-panel-${s.id}`} aria-labelledby={`${id}-tab-${s.id}`} hidden={s.id !== active}
            tabIndex={0} className="settings-panel" data-section={s.id}>
            <h2 className="settings-section-title">{s.title}</h2>
            <p className="settings-applies">{s.applies ?? nothingToChange}</p>
            <s.Component deps={deps} setDirty={setDirtyOf(s.id)} onSaved={onSaved} goTo={(to) => select(to, true)} />
          </div>
        ))}
      </div>
    </section>
  );
}
