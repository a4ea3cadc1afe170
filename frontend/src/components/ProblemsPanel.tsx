import { useEffect, useState } from "react";
import type { DiagnosticsUpdatedPayload } from "../bridge";
import type { FilesBackend } from "../bridge/files";
import { FileViewer } from "./FileViewer";
import "./ProblemsPanel.css";

/**
 * The Problems panel: the language servers' current diagnostics of the
 * files they have open, by file (errors first), and the servers that
 * crashed or could not start. A click opens the file in the viewer.
 */
export function ProblemsPanel({ subscribe, files }: {
  /** Calls cb with every diagnostics.updated of the session; returns the unsubscribe. */
  subscribe: (cb: (p: DiagnosticsUpdatedPayload) => void) => () => void;
  files?: FilesBackend;
}) {
  const [state, setState] = useState<DiagnosticsUpdatedPayload>({ files: {}, servers: [] });
  const [open, setOpen] = useState<{ path: string; line: number } | null>(null);
  useEffect(() => subscribe(setState), [subscribe]);
  const rank = (s: string) => ({ error: 0, warning: 1, info: 2, hint: 3 })[s] ?? 4;
  const paths = Object.keys(state.files ?? {}).filter((p) => (state.files[p] ?? []).length > 0).sort();
  const troubled = (state.servers ?? []).filter((s) => s.state === "crashed" || s.state === "failed");
  if (open && files) {
    return <FileViewer files={files} path={open.path} line={open.line} version={0} onClose={() => setOpen(null)} />;
  }
  return (
    <div className="problems-panel">
      {troubled.map((s) => (
        <p key={s.name} className="problems-server" role="status">⚠ {s.name} {s.state}{s.error ? `: ${s.error}` : ""}</p>
      ))}
      {paths.length === 0 ? (
        <p className="problems-empty">No problems in the files the language servers have open.</p>
      ) : (
        <ul className="problems-files" aria-label="Problems">
          {paths.map((p) => (
            <li key={p}>
              <span className="mono problems-path">{p}</span>
              <ul>
                {[...(state.files[p] ?? [])].sort((a, b) => rank(a.severity) - rank(b.severity) || a.line - b.line).map((d, i) => (
                  <li key={i}>
                    <button type="button" className={`problems-item diag-${d.severity}`} onClick={() => setOpen({ path: p, line: d.line })}>
                      <span className="mono">{d.line}:{d.col}</span> {d.severity} {d.message}
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
