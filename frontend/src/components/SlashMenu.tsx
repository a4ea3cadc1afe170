import type { SlashCommand } from "../bridge";

/** What the composer can do with slash commands; the list is read when "/" is typed. */
export interface SlashActions {
  list: () => Promise<SlashCommand[]>;
  /** /plan: switches to plan mode. */
  plan?: () => void;
  /** /clear: starts a new session. */
  clear?: () => void;
  /** /experimental name: turns an experiment on for the session ("teams"); rejects with why when it cannot. */
  experimental?: (name: string) => Promise<unknown>;
}

/** The command a draft names ("/review src/a.go" → review, "src/a.go"); undefined when it names none. */
export function parseSlash(draft: string): { name: string; args: string } | undefined {
  const m = /^\/([a-z0-9][a-z0-9_:.-]*)(?:\s+([\s\S]*))?$/.exec(draft.trim());
  return m ? { name: m[1], args: (m[2] ?? "").trim() } : undefined;
}

/** The commands matching a draft still being typed ("/re"), or none once a space follows the name. */
export function slashMatches(draft: string, cmds: readonly SlashCommand[]): SlashCommand[] {
  const m = /^\/([a-z0-9_:.-]*)$/.exec(draft);
  if (!m) return [];
  return cmds.filter((c) => c.name.startsWith(m[1]));
}

/** Who offers an entry that is not a built-in, as the menu says it. */
const ORIGIN: Record<string, string> = { user: "yours", workspace: "this workspace", skill: "skill", "mcp-prompt": "server prompt" };

/**
 * The list of commands under the composer while a "/name" is typed; a click completes it. An entry another of the
 * same name shadows is listed after the others, disabled, saying which one runs instead.
 */
export function SlashMenu({ matches, active, onPick }: { matches: SlashCommand[]; active: number; onPick: (c: SlashCommand) => void }) {
  if (matches.length === 0) return null;
  return (
    <ul className="slash-menu" role="listbox" aria-label="Commands">
      {matches.map((c, i) => (
        <li key={`${c.name} ${c.source}`} role="option" aria-selected={i === active} aria-disabled={c.shadowedBy ? true : undefined}
          className={`${i === active ? "active" : ""}${c.shadowedBy ? " shadowed" : ""}`}
          title={c.source}
          onMouseDown={(e) => {
            e.preventDefault();
            if (!c.shadowedBy) onPick(c);
          }}>
          <span className="slash-name">/{c.name}</span> <span className="slash-desc">{c.description}</span>
          {c.origin !== "built-in" && <span className="slash-source"> · {ORIGIN[c.origin] ?? c.origin}</span>}
          {c.shadowedBy && <span className="slash-shadowed"> · not run: {c.shadowedBy === "built-in" ? "a built-in" : c.shadowedBy} has this name</span>}
        </li>
      ))}
    </ul>
  );
}
