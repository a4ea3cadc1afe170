// What the dialog sends: the decision for the ticked files and hunks, and
// the words it shows before the click. Pure, so tests need no DOM.
import type { ApprovalRequestedPayload, Decision, FilePreview, Preview } from "../bridge";

/**
 * The ticked parts of a change: a hunk id ("path#n") for each ticked hunk
 * of a file that has hunks, the path of each ticked file that has none.
 */
export type Ticks = ReadonlySet<string>;

/** The keys a file contributes to Ticks. */
export function fileKeys(f: FilePreview): string[] {
  return f.hunks?.length ? f.hunks.map((h) => h.id) : [f.path];
}

/** Everything ticked: how a dialog opens. */
export function allTicked(p: Preview): Ticks {
  return new Set((p.files ?? []).flatMap(fileKeys));
}

export type TickState = "all" | "some" | "none";

export function fileState(f: FilePreview, t: Ticks): TickState {
  const keys = fileKeys(f);
  const n = keys.filter((k) => t.has(k)).length;
  return n === 0 ? "none" : n === keys.length ? "all" : "some";
}

/** Ticks or unticks a whole file: a fully ticked file is unticked, any other ticked whole. */
export function toggleFile(f: FilePreview, t: Ticks): Ticks {
  const next = new Set(t);
  const on = fileState(f, t) !== "all";
  for (const k of fileKeys(f)) if (on) next.add(k); else next.delete(k);
  return next;
}

export function toggleKey(key: string, t: Ticks): Ticks {
  const next = new Set(t);
  if (!next.delete(key)) next.add(key);
  return next;
}

export function selectionState(p: Preview, t: Ticks): TickState {
  const keys = (p.files ?? []).flatMap(fileKeys);
  const n = keys.filter((k) => t.has(k)).length;
  return n === 0 ? "none" : n === keys.length ? "all" : "some";
}

/**
 * The decision for approving what is ticked: once when everything is, a
 * partial one naming fully ticked files and the ticked hunks of the others
 * when some is, null when nothing is (only Reject applies then).
 */
export function approveTicked(p: Preview, t: Ticks): Decision | null {
  if (!p.partial) return { kind: "once" };
  const state = selectionState(p, t);
  if (state === "none") return null;
  if (state === "all") return { kind: "once" };
  const files: string[] = [];
  const hunks: string[] = [];
  for (const f of p.files ?? []) {
    const s = fileState(f, t);
    if (s === "all") files.push(f.path);
    else if (s === "some") hunks.push(...(f.hunks ?? []).map((h) => h.id).filter((id) => t.has(id)));
  }
  const d: Decision = { kind: "partial" };
  if (files.length) d.files = files;
  if (hunks.length) d.hunks = hunks;
  return d;
}

export function reject(note: string): Decision {
  const n = note.trim();
  return n ? { kind: "reject", note: n } : { kind: "reject" };
}

const opVerb = { add: "create", update: "change", delete: "delete", move: "move" } as const;
const actionVerb: Record<string, string> = {
  exec: "run a command", start: "start a process", write: "type into a process", stop: "stop a process",
};

/** "apply_patch wants to change 2 files", "bash wants to run a command". */
export function dialogTitle(r: ApprovalRequestedPayload): string {
  const p = r.preview;
  let what = "run with these arguments";
  if (p.kind === "files") {
    const files = p.files ?? [];
    const f = files[0];
    const verb = f?.replaces && f.operation !== "move" ? "replace" : opVerb[f?.operation] ?? "change";
    what = files.length === 1 ? `${verb} ${f.path}` : `change ${files.length} files`;
  } else if (p.kind === "command" && p.command) {
    what = actionVerb[p.command.action] ?? `${p.command.action} a process`;
  }
  if (p.web) return `${r.agent ? `${r.agent} › ` : ""}${r.tool} wants to fetch from ${p.web.domain}`;
  if (p.mcp) return `${r.agent ? `${r.agent} › ` : ""}MCP server ${p.mcp.server} wants to run ${p.mcp.tool}`;
  // A subagent's call says which agent asks: "explore › read_file wants to …".
  return `${r.agent ? `${r.agent} › ` : ""}${r.tool} wants to ${what}`;
}

/** The rule "Approve for session" creates, in words; "" when it creates none. */
export function ruleText(r: ApprovalRequestedPayload): string {
  const m = r.preview.mcp;
  if (r.rule?.domain) return `rule: ${r.tool} any URL on ${r.rule.domain}, exactly this domain, not its subdomains (this session)`;
  if (r.rule && m) return `rule: ${m.tool} on MCP server ${m.server}, any arguments (this session)`;
  return r.rule ? `rule: ${r.rule.summary} (this session)` : "";
}
