import { useMemo, useState } from "react";
import type { ChildTranscript, TranscriptItem } from "../bridge";
import { ChatActionsContext, type ChatActions } from "../components/ChatActions";
import { ChildrenContext } from "../components/ChildView";
import { ImagesContext, type ImagesApi } from "../components/images";
import { RowView } from "../components/Transcript";
import "./export.css";

/**
 * A session as the Go side writes it into an exported page (internal/export):
 * its turns' items, masked, with who decided each call that a person or a
 * record decided, and the pictures embedded (by image id, data URLs).
 */
export interface ExportData {
  meta: { id: string; title: string; workspace: string; started?: string; range?: string; spent?: string };
  turns: { n: number; items: TranscriptItem[] }[];
  /** By call id: who let it run or refused it ("approved by the user (once)"). */
  decisions?: Record<string, string>;
  /** By image id: the picture as a data URL; a picture not here is listed by name. */
  images?: Record<string, string>;
  /** The subagents' transcripts, by the call that started each: drawn inside that call's card. */
  children?: Record<string, ChildTranscript>;
}

const noChildren: Record<string, ChildTranscript> = {};

const refused = () => Promise.reject(new Error("An exported session is read-only."));

/** What the window's components may ask of the page: links open in a new tab, copy uses the page's clipboard. */
const actions: ChatActions = {
  openURL: (url) => void window.open(url, "_blank", "noopener,noreferrer"),
  openSettings: () => {},
  copy: async (text) => {
    if (!navigator.clipboard?.writeText) throw new Error("No clipboard is available here.");
    await navigator.clipboard.writeText(text);
  },
};

/**
 * An exported session, read-only: every turn drawn by the window's own
 * transcript rows (the same tool cards, diffs, hooks and turn markers), each
 * call folded until opened, or all unfolded at once (also the page's
 * #unfold address).
 */
export function ExportPage({ data, unfolded }: { data: ExportData; unfolded?: boolean }) {
  const [open, setOpen] = useState(!!unfolded);
  // Cards keep their own open state: folding or unfolding all draws them anew.
  const [drawn, setDrawn] = useState(0);
  const images = useMemo<ImagesApi>(() => ({
    imageData: (id) => (data.images?.[id] ? Promise.resolve(data.images[id]) : Promise.reject(new Error("not embedded"))),
    attachImage: refused, markModelVision: refused, attachDropped: refused, forgetDropped: refused,
  }), [data]);
  const m = data.meta;
  const facts = [m.started && `started ${m.started}`, m.range && `turns ${m.range}`, m.spent && `spent ${m.spent}`].filter(Boolean);
  return (
    <ChatActionsContext.Provider value={actions}>
      <ImagesContext.Provider value={images}>
      <ChildrenContext.Provider value={data.children ?? noChildren}>
        <div className="export-page">
          <header className="export-head">
            <h1>{m.title}</h1>
            <p className="export-meta">
              Session <code>{m.id}</code> · workspace <code>{m.workspace}</code>
              {facts.map((f) => <span key={f as string}> · {f}</span>)}
            </p>
            <button type="button" onClick={() => { setOpen(!open); setDrawn(drawn + 1); }}>
              {open ? "Fold every call" : "Unfold every call"}
            </button>
          </header>
          <main key={drawn} className="export-turns">
            {data.turns.map((t) => (
              <section key={t.n} className="export-turn" aria-label={`Turn ${t.n}`}>
                <h2>Turn {t.n}</h2>
                {t.items.map((it, i) => (
                  <div key={`${it.kind}:${it.id ?? i}`} className="export-row">
                    <RowView row={{ key: `${i}`, item: it }} last={false} reveal={open} undoable={false} />
                    {it.kind === "tool" && it.id && data.decisions?.[it.id] && (
                      <div className="tool-rule export-decision" role="note">{data.decisions[it.id]}</div>
                    )}
                  </div>
                ))}
              </section>
            ))}
          </main>
        </div>
      </ChildrenContext.Provider>
      </ImagesContext.Provider>
    </ChatActionsContext.Provider>
  );
}
