// Pure helpers that turn a tool call's args and result into the words of its
// card: the target (a path or a command), a short summary, the error message.
import type { TranscriptItem } from "../bridge";

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
  const parts = [str(a.path), str(a.pattern) && `"${str(a.pattern)}"`].filter(Boolean);
  return parts.join(" ");
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
    case "write_file":
      return num(r.bytesWritten) !== undefined ? `${r.created ? "created, " : ""}${r.bytesWritten} bytes` : "";
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

/** The file excerpt of a read_file result, with its path. */
export function readExcerpt(it: TranscriptItem): { path: string; content: string } | null {
  if (it.tool !== "read_file" || it.isError) return null;
  const r = obj(it.result);
  return typeof r.content === "string" ? { path: str(r.path) || str(obj(it.args).path), content: r.content } : null;
}

/** The unified diffs of an apply_patch result, one per file. */
export function patchDiffs(it: TranscriptItem): { path: string; diff: string }[] {
  if (it.tool !== "apply_patch" || it.isError) return [];
  const changes = Array.isArray(obj(it.result).fileChanges) ? (obj(it.result).fileChanges as unknown[]).map(obj) : [];
  return changes.filter((c) => str(c.diff)).map((c) => ({ path: str(c.path), diff: str(c.diff) }));
}

/** The files a file tool's call changed, as the undo store names them (workspace-relative). */
export function writtenPaths(it: TranscriptItem): string[] {
  if (it.isError) return [];
  const clean = (p: string) => p.replace(/^(\.\/)+/, "");
  if (it.tool === "write_file") {
    const p = str(obj(it.args).path);
    return p ? [clean(p)] : [];
  }
  return [...new Set(patchDiffs(it).map((d) => clean(d.path)))];
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
