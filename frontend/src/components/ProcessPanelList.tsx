import type { ProcessInfo } from "../bridge/processes";
import { elapsed, portURL, statusIcon, statusKind, statusText } from "../processes/list";

export interface ProcessPanelListProps {
  processes: ProcessInfo[];
  selectedId: string | null;
  nowMs: number;
  onSelect: (id: string) => void;
  onOpenURL: (url: string) => void;
}

// The session's processes, oldest first: a status icon and word (never colour
// alone), the command, uptime or duration, the exit code and port links.
export function ProcessPanelList({ processes, selectedId, nowMs, onSelect, onOpenURL }: ProcessPanelListProps) {
  if (!processes.length) {
    return <p className="empty">No processes yet. Processes the agent starts show up here.</p>;
  }
  return (
    <ul className="proc-list" aria-label="Process list">
      {processes.map((p) => {
        const kind = statusKind(p);
        const selected = p.processId === selectedId;
        return (
          <li key={p.processId} className={`proc-item proc-${kind}${selected ? " selected" : ""}`}>
            <button className="proc-select" aria-current={selected ? "true" : undefined} onClick={() => onSelect(p.processId)} title={p.command}>
              <span className="proc-icon" aria-hidden="true">
                {statusIcon(p)}
              </span>
              <span className="proc-command">{p.command}</span>
              <span className="proc-meta">
                <span className="proc-status">{statusText(p)}</span>
                <span className="proc-elapsed"> · {elapsed(p, nowMs)}</span>
                {p.restored && <span className="proc-restored"> · earlier run</span>}
              </span>
            </button>
            {p.status === "running" &&
              (p.ports ?? []).map((port) => {
                const url = portURL(port);
                return (
                  <a
                    key={port}
                    className="proc-port"
                    href={url}
                    onClick={(e) => {
                      e.preventDefault();
                      onOpenURL(url);
                    }}
                  >
                    open {url}
                  </a>
                );
              })}
          </li>
        );
      })}
    </ul>
  );
}
