import type { MentionCandidate } from "../bridge";
/** What the composer's @-mentions need from the app. */
export interface MentionActions {
  /** Earlier sessions (session:ID), files and folders (ending in /), then MCP servers' resources (labelled with the server), best first. */
  candidates: (query: string) => Promise<MentionCandidate[]>;
}

/** The @-token being typed at the end of a draft ("fix @src/ma" → "src/ma"), or undefined. */
export function mentionQuery(draft: string): string | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(draft);
  return m ? m[1] : undefined;
}

/** The draft with the @-token being typed replaced by the picked path. */
export function completeMention(draft: string, path: string): string {
  return draft.replace(/@([^\s@]*)$/, `@${path}${path.endsWith("/") ? "" : " "}`);
}

/** The mentions a message sends: each @token whose path (before :from-to) was picked. */
export function mentionsIn(text: string, picked: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const token = m[1];
    const path = token.replace(/:\d+-\d+$/, "");
    if (picked.has(path) && !out.includes(token)) out.push(token);
  }
  return out;
}

/** The picker under the composer while an @-token is typed. */
export function MentionList({ options, active, onPick }: { options: MentionCandidate[]; active: number; onPick: (c: MentionCandidate) => void }) {
  if (options.length === 0) return null;
  return (
    <ul className="slash-menu" role="listbox" aria-label="Files">
      {options.map((c, i) => (
        <li key={c.mention} role="option" aria-selected={i === active} className={i === active ? "active" : ""}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(c);
          }}>
          <span className="slash-name">{c.label}</span>
          {c.detail && <span className="slash-desc"> {c.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The attached mentions as chips above the composer, each removable. */
export function MentionChips({ picked, onRemove }: { picked: MentionCandidate[]; onRemove: (mention: string) => void }) {
  if (picked.length === 0) return null;
  return (
    <ul className="mention-chips" aria-label="Attached files">
      {picked.map(({ mention: p, label }) => (
        <li key={p} className="mention-chip">
          <span>{label}</span>
          <button type="button" className="link-button" aria-label={`Remove ${label}`} onClick={() => onRemove(p)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
