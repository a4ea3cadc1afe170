import type { ImageRef } from "../bridge";
/** What the composer's @-mentions need from the app. */
export interface MentionActions {
  /** Files and folders (ending in /) matching a query, best first. */
  candidates: (query: string) => Promise<string[]>;
  /** Sends text with the mentioned files, ranges (path:10-40) and folders attached, and the pictures, as one message. */
  submit: (text: string, mentions: string[], images: ImageRef[]) => Promise<void>;
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
export function MentionList({ options, active, onPick }: { options: string[]; active: number; onPick: (p: string) => void }) {
  if (options.length === 0) return null;
  return (
    <ul className="slash-menu" role="listbox" aria-label="Files">
      {options.map((p, i) => (
        <li key={p} role="option" aria-selected={i === active} className={i === active ? "active" : ""}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(p);
          }}>
          <span className="slash-name">{p}</span>
        </li>
      ))}
    </ul>
  );
}

/** The attached mentions as chips above the composer, each removable. */
export function MentionChips({ paths, onRemove }: { paths: string[]; onRemove: (p: string) => void }) {
  if (paths.length === 0) return null;
  return (
    <ul className="mention-chips" aria-label="Attached files">
      {paths.map((p) => (
        <li key={p} className="mention-chip">
          <span>{p}</span>
          <button type="button" className="link-button" aria-label={`Remove ${p}`} onClick={() => onRemove(p)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
