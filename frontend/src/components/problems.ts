import { useEffect, useState } from "react";
import type { Diagnostic, DiagnosticsUpdatedPayload } from "../bridge";

/** The latest diagnostics.updated of the shown session (null until one came). */
export function useProblems(subscribe: (cb: (p: DiagnosticsUpdatedPayload) => void) => () => void): DiagnosticsUpdatedPayload | null {
  const [p, setP] = useState<DiagnosticsUpdatedPayload | null>(null);
  useEffect(() => subscribe(setP), [subscribe]);
  return p;
}

/** The errors the language servers report now, by workspace-relative path (files without any left out). */
export function errorsByPath(p: DiagnosticsUpdatedPayload | null | undefined): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>();
  for (const [path, ds] of Object.entries(p?.files ?? {})) {
    const errors = (ds ?? []).filter((d) => d.severity === "error");
    if (errors.length) out.set(path, errors);
  }
  return out;
}
