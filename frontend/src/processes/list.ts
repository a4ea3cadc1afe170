// The process list as the panel shows it: pure functions over ProcessInfo.
import type { ProcessInfo } from "../bridge/processes";

export type StatusKind = "running" | "ok" | "failed" | "stopped";

/** Inserts or replaces info, keeping the list in start order. */
export function upsert(list: ProcessInfo[], info: ProcessInfo): ProcessInfo[] {
  const i = list.findIndex((p) => p.processId === info.processId);
  if (i >= 0) {
    const out = list.slice();
    out[i] = info;
    return out;
  }
  return sortByStart([...list, info]);
}

/**
 * Merges a freshly fetched list into the current one. The fetched list says
 * which processes exist; an entry that ended meanwhile (an event newer than
 * the fetch) keeps its ended state.
 */
export function merge(current: ProcessInfo[], fetched: ProcessInfo[]): ProcessInfo[] {
  const byId = new Map(current.map((p) => [p.processId, p]));
  return sortByStart(
    fetched.map((f) => {
      const c = byId.get(f.processId);
      return c && c.status !== "running" && f.status === "running" ? c : f;
    }),
  );
}

function sortByStart(list: ProcessInfo[]): ProcessInfo[] {
  return list.sort((a, b) => a.startedAtMs - b.startedAtMs || a.processId.localeCompare(b.processId, "en", { numeric: true }));
}

export function statusKind(p: ProcessInfo): StatusKind {
  if (p.status === "running") return "running";
  if (p.status === "stopped") return "stopped";
  return p.exitCode === 0 || p.exitCode === undefined ? "ok" : "failed";
}

const icons: Record<StatusKind, string> = { running: "●", ok: "✓", failed: "✗", stopped: "■" };

/** An icon that does not rely on colour alone. */
export function statusIcon(p: ProcessInfo): string {
  return icons[statusKind(p)];
}

/** The status in words: "running", "exited 0", "failed, exit 1", "stopped, exit 143". */
export function statusText(p: ProcessInfo): string {
  const code = p.exitCode === undefined ? "" : `exit ${p.exitCode}`;
  switch (statusKind(p)) {
    case "running":
      return "running";
    case "ok":
      return code ? `exited, ${code}` : "exited";
    case "failed":
      return `failed, ${code}`;
    case "stopped":
      return code ? `stopped, ${code}` : "stopped";
  }
}

/** How long it has run (running) or ran (ended), as "4s", "2m 05s", "1h 02m". */
export function elapsed(p: ProcessInfo, nowMs: number): string {
  const end = p.status === "running" ? nowMs : (p.endedAtMs ?? nowMs);
  return formatDuration(end - p.startedAtMs);
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m % 60).padStart(2, "0")}m`;
}

export function portURL(port: number): string {
  return `http://localhost:${port}`;
}

/** A byte count in words, for "[… 1.2 MB of output skipped …]". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
