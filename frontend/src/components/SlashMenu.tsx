import type { SlashCommand } from "../bridge";

/** What the composer can do with slash commands; the list is read when "/" is typed. */
export interface SlashActions {
  list: () => Promise<SlashCommand[]>;
  /** Sends a user's command with its arguments. */
  run: (name: string, args: string) => Promise<void>;
  /** /plan: switches to plan mode. */
  plan?: () => void;
  /** /clear: starts a new session. */
  clear?: () => void;
}

/** The command a draft names ("/review src/a.go" → review, "src/a.go"); undefined when it names none. */
export function parseSlash(draft: string): { name: string; args: string } | undefined {
  const m = /^\/([a-z0-9][a-z0-9_-]*)(?:\s+([\s\S]*))?$/.exec(draft.trim());
  return m ? { name: m[1], args: (m[2] ?? "").trim() } : undefined;
}

/** The commands matching a draft still being typed ("/re"), or none once a space follows the name. */
export function slashMatches(draft: string, cmds: readonly SlashCommand[]): SlashCommand[] {
  const m = /^\/([a-z0-9_-]*)$/.exec(draft);
  if (!m) return [];
  return cmds.filter((c) => c.name.startsWith(m[1]));
}

/** The list of commands under the composer while a "/name" is typed; a click completes it. */
export function SlashMenu({ matches, active, onPick }: { matches: SlashCommand[]; active: number; onPick: (c: SlashCommand) => void }) {
  if (matches.length === 0) return null;
  return (
    <ul className="slash-menu" role="listbox" aria-label="Commands">
      {matches.map((c, i) => (
        <li key={c.name} role="option" aria-selected={i === active} className={i === active ? "active" : ""}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(c);
          }}>
          <span className="slash-name">/{c.name}</span> <span className="slash-desc">{c.description}</span>
          {c.source !== "built-in" && <span className="slash-source"> · yours</span>}
        </li>
      ))}
    </ul>
  );
}
