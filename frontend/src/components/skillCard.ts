// What a "skill NAME loaded" card shows, read from the user's /name message
// (the form internal/skills Catalog.UserPrompt writes) or from the model's
// skill tool call (its Activation result).
import type { TranscriptItem } from "../bridge";

export interface SkillLoad {
  skill: string;
  folder?: string;
  files?: string[];
  /** The skill's claim: shown only, it never grants approval. */
  allowedTools?: string;
  /** SKILL.md's body; absent when the session had it loaded already. */
  instructions?: string;
  alreadyLoaded?: boolean;
  note?: string;
}

const FIRST = /^\[The user loaded skill (\S+) for this message\. Its folder is ([\s\S]*?)(?:, holding ([^\n]*?))?(?:\. Its allowed-tools \(a suggestion only: every call still passes the approval gate\): ([^\n]*?))?\. Its instructions:\]\n\n/;
const AGAIN = /^\[The user chose skill (\S+) again; it is loaded already \(folder ([^\n]*)\)\.\]\n\n/;

/** The skill a user message loads and the text the user wrote (null: no skill). */
export function userSkill(text: string): { load: SkillLoad; text: string } | null {
  const again = AGAIN.exec(text);
  if (again) return { load: { skill: again[1], folder: again[2], alreadyLoaded: true }, text: text.slice(again[0].length) };
  const m = FIRST.exec(text);
  if (!m) return null;
  const end = `\n\n[End of skill ${m[1]}.]`;
  const rest = text.slice(m[0].length);
  const at = rest.lastIndexOf(end);
  if (at < 0) return null;
  const after = rest.slice(at + end.length).replace(/^\n\n/, "");
  return {
    load: {
      skill: m[1],
      folder: m[2],
      files: m[3] ? m[3].split(", ") : undefined,
      allowedTools: m[4] || undefined,
      instructions: rest.slice(0, at),
    },
    text: after,
  };
}

/** What Edit puts back in the composer for a user message: a /name message as /name and the user's text. */
export function editableText(text: string): string {
  const sk = userSkill(text);
  if (!sk) return text;
  return sk.text ? `/${sk.load.skill} ${sk.text}` : `/${sk.load.skill}`;
}

/** The skill the model's skill call loaded (null: not a finished, successful skill call). */
export function toolSkill(item: TranscriptItem): SkillLoad | null {
  if (item.tool !== "skill" || item.running || item.isError) return null;
  let r: unknown = item.result;
  if (typeof r === "string") {
    try {
      r = JSON.parse(r);
    } catch {
      return null;
    }
  }
  if (!r || typeof r !== "object") return null;
  const a = r as Record<string, unknown>;
  if (typeof a.skill !== "string") return null;
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  return {
    skill: a.skill,
    folder: str(a.folder),
    files: Array.isArray(a.files) ? a.files.filter((f): f is string => typeof f === "string") : undefined,
    allowedTools: str(a.allowedTools),
    instructions: str(a.instructions),
    alreadyLoaded: a.alreadyLoaded === true,
    note: str(a.note),
  };
}
