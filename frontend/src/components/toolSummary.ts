// Pure helpers that turn a tool call's args and result into the words of its
// card: the target (a path or a command), a short summary, the error message.
import type { Rule, TranscriptItem } from "../bridge";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** What the call works on: a path, a command, a pattern, a process. */
export function toolTarget(tool: string, args: unknown): string {
  const a = obj(args);
  if (tool === "bash") {
    const action = str(a.action) || "exec";
    if (str(a.command)) return action === "exec" ? str(a.command) : `${action}: ${str(a.command)}`;
    return str(a.processId) ? `${action} ${str(a.processId)}` : action;
  }
  if (tool === "apply_patch") {
    const files = [...str(a.patch).matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1].trim());
    if (files.length) return files.length > 2 ? `${files.slice(0, 2).join(", ")} +${files.length - 2} more` : files.join(", ");
  }
  const team = teamTarget(tool, a);
  if (team !== undefined) return team;
  const parts = [str(a.path), str(a.pattern) && `"${str(a.pattern)}"`].filter(Boolean);
  return parts.join(" ");
}

/** A team tool's target in words: who is spawned or stopped, a task's move, a message's addressee. */
function teamTarget(tool: string, a: Obj): string | undefined {
  switch (tool) {
    case "team_spawn":
      return `${str(a.name)}${str(a.agent) ? ` (${str(a.agent)})` : ""}${str(a.task) ? `: ${str(a.task)}` : ""}`;
    case "team_message":
      return `→ ${str(a.to)}`;
    case "team_task_update":
      return `#${str(a.id)}${str(a.title) ? ` ${str(a.title)}` : ""}${str(a.status) ? ` → ${str(a.status).replaceAll("_", " ")}` : ""}${str(a.owner) ? `, owner ${str(a.owner)}` : ""}`;
    case "team_stop":
      return str(a.name);
  }
  return undefined;
}

/** A few words about a finished call's result ("lines 1–40 of 120", "+12 −1", "exit 0"). */
export function toolSummary(tool: string, result: unknown): string {
  const r = obj(result);
  switch (tool) {
    case "read_file": {
      const s = num(r.startLine), e = num(r.endLine), t = num(r.totalLines);
      if (s === undefined || e === undefined) return "";
      return `lines ${s}–${e}${t !== undefined ? ` of ${t}` : ""}${r.truncated ? ", cut" : ""}`;
    }
    case "apply_patch": {
      const changes = Array.isArray(r.fileChanges) ? r.fileChanges.map(obj) : [];
      if (!changes.length) return "";
      const add = changes.reduce((n, c) => n + (num(c.linesAdded) ?? 0), 0);
      const del = changes.reduce((n, c) => n + (num(c.linesRemoved) ?? 0), 0);
      return `${changes.length} file${changes.length === 1 ? "" : "s"} +${add} −${del}`;
    }
    case "write_file": {
      if (num(r.bytesWritten) === undefined) return "";
      const lines = num(r.linesAdded) !== undefined ? ` +${r.linesAdded} −${num(r.linesRemoved) ?? 0}` : "";
      return `${r.created ? "created, " : ""}${r.bytesWritten} bytes${lines}`;
    }
    case "grep": {
      const m = Array.isArray(r.matches) ? r.matches.length : undefined, f = num(r.filesSearched);
      if (m === undefined || f === undefined) return "";
      return `${m} match${m === 1 ? "" : "es"}${r.truncated ? "+" : ""} in ${f} file${f === 1 ? "" : "s"} searched`;
    }
    case "team_tasks": {
      const tasks = Array.isArray(result) ? result : Array.isArray(r.tasks) ? r.tasks : undefined;
      return tasks ? `${tasks.length} task${tasks.length === 1 ? "" : "s"}` : "";
    }
    case "bash":
      if (r.timedOut) return "timed out";
      return num(r.exitCode) !== undefined ? `exit ${r.exitCode}` : "";
    default:
      return "";
  }
}

/** The message of an error result, readable without expanding the card. */
export function toolError(it: TranscriptItem): string {
  if (!it.isError) return "";
  const r = obj(it.result);
  const e = obj(r.error);
  if (str(e.message)) return str(e.message);
  if (typeof it.result === "string") return it.result;
  if (str(r.stderr)) return str(r.stderr).trim().split("\n").slice(-3).join("\n");
  return "The tool failed.";
}

/** The text a bash command printed, stdout and stderr apart; null when the result has neither. */
export function commandOutput(it: TranscriptItem): { stdout: string; stderr: string } | null {
  if (it.tool !== "bash" || it.running) return null;
  const r = obj(it.result);
  if (typeof r.stdout !== "string" && typeof r.stderr !== "string") return null;
  return { stdout: str(r.stdout), stderr: str(r.stderr) };
}

/** What the sandbox refused in a bash call, in its own words ("" for nothing). */
export function sandboxNote(it: TranscriptItem): string {
  if (it.tool !== "bash" || it.running) return "";
  return str(obj(it.result).sandbox);
}

/** What the user's policy left out of a walk (grep, glob, list_dir), in the backend's words: "1 entry was hidden by the user's policy". */
export function policyHiddenNote(it: TranscriptItem): string {
  if (it.running || (it.tool !== "grep" && it.tool !== "glob" && it.tool !== "list_dir")) return "";
  const r = obj(it.result);
  return (num(r.hiddenByPolicy) ?? 0) > 0 ? str(r.hidden) : "";
}

/** The domains a bash call reached through the network proxy and those refused, or the domain web_fetch was refused (allow-list mode). */
export function networkUse(it: TranscriptItem): { reached: string[]; refused: string[] } | null {
  if ((it.tool !== "bash" && it.tool !== "web_fetch") || it.running) return null;
  const n = obj(obj(it.result).network);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((d): d is string => typeof d === "string") : []);
  const use = { reached: list(n.reached), refused: list(n.refused) };
  return use.reached.length + use.refused.length > 0 ? use : null;
}

/** Set when the user ran this bash call outside the sandbox. */
export function unconfinedNote(it: TranscriptItem): string {
  if (it.tool !== "bash" || it.running) return "";
  return str(obj(it.result).unconfined);
}

/** Whether the user rejected the call in the dialog (the gate's error code). */
export function rejected(it: TranscriptItem): boolean {
  return !!it.isError && obj(obj(it.result).error).code === "approval_rejected";
}

/** read_file's line prefix: the number right-aligned in six columns, then a tab (as `cat -n`). */
const lineNo = /^ *(\d+)\t/;

/**
 * The file excerpt of a read_file result, with its path: the text as in the
 * file (the numbers the model reads taken off) and the number of its first
 * line, for the gutter. Results saved before lines were numbered come as they are.
 */
export function readExcerpt(it: TranscriptItem): { path: string; content: string; startLine?: number } | null {
  if (it.tool !== "read_file" || it.isError) return null;
  const r = obj(it.result);
  if (typeof r.content !== "string") return null;
  const path = str(r.path) || str(obj(it.args).path);
  const lines = r.content.split(/(?<=\n)/);
  if (!r.content || !lines.every((l) => lineNo.test(l))) return { path, content: r.content };
  return { path, content: lines.map((l) => l.replace(lineNo, "")).join(""), startLine: Number(lineNo.exec(lines[0])![1]) };
}

/** An added file as a unified diff: every line added. */
function addedDiff(content: string): string {
  if (!content) return "";
  const lines = content.split("\n");
  const noFinal = lines[lines.length - 1] !== "";
  if (!noFinal) lines.pop();
  return `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join("")}${noFinal ? "\\ No newline at end of file\n" : ""}`;
}

/**
 * The unified diffs of a finished file change, one per file: apply_patch's
 * file changes, or write_file's diff (a created file's is its content, all
 * added: the result leaves it out, the call's arguments have it).
 */
export function fileDiffs(it: TranscriptItem): { path: string; diff: string }[] {
  if (it.isError || it.running) return [];
  const r = obj(it.result);
  if (it.tool === "apply_patch") {
    const changes = Array.isArray(r.fileChanges) ? (r.fileChanges as unknown[]).map(obj) : [];
    return changes.filter((c) => str(c.diff)).map((c) => ({ path: str(c.path), diff: str(c.diff) }));
  }
  if (it.tool === "write_file") {
    const path = str(r.path) || str(obj(it.args).path);
    const diff = str(r.diff) || (r.created ? addedDiff(str(obj(it.args).content)) : "");
    return diff ? [{ path, diff }] : [];
  }
  return [];
}

/** The files a file tool's call changed, as the undo store names them (workspace-relative). */
export function writtenPaths(it: TranscriptItem): string[] {
  if (it.tool !== "write_file" && it.tool !== "apply_patch") return [];
  const clean = (p: string) => p.replace(/^(\.\/)+/, "");
  return [...new Set(fileDiffs(it).map((d) => clean(d.path)))];
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function pretty(v: unknown): string {
  if (typeof v === "string") return v;
  try {
    return JSON.stringify(v, null, 2) ?? "";
  } catch {
    return String(v);
  }
}

/** What a session rule allows, in the words of the call: `npm test`, `src/a.ts, src/b.ts`, or the tool. */
export function ruleText(r: Rule): string {
  if (r.commands?.length) return r.commands.map((c) => c.join(" ")).join(", ");
  if (r.files?.length) return r.files.join(", ");
  return `any ${r.tool} call`;
}
