import { useCallback, useEffect, useState, type ReactNode } from "react";
import type { PendingTrust, TrustBackend } from "../bridge/agents";
import "./McpPanel.css";

/**
 * The banner for one kind of workspace content (agent definitions, slash
 * commands) while the folder is not trusted for it, or it changed since:
 * each file as describe draws it, and Trust / Not now. It asks again when
 * refresh (a new session, the end of a turn) or the window's focus finds
 * other content.
 */
export function TrustPrompt<F extends { path: string; error?: string }>({ backend, refresh, onTrusted, label, fileLabel, intro, describe, caution, refusedNote }: {
  backend: TrustBackend<F>;
  refresh?: unknown;
  onTrusted?: () => void;
  /** The banner's accessible name. */
  label: string;
  /** Each file's accessible name. */
  fileLabel: (path: string) => string;
  intro: ReactNode;
  /** A file that loads, after its path. */
  describe: (f: F) => ReactNode;
  /** Why trust matters, under the list. */
  caution: string;
  /** Said when only refused files are listed. */
  refusedNote: string;
}) {
  const [pending, setPending] = useState<PendingTrust<F> | null>(null);
  const [dismissed, setDismissed] = useState("");
  const [error, setError] = useState("");
  const check = useCallback(() => {
    backend.pending().then(
      (p) => setPending(p && p.files?.length ? p : null),
      () => setPending(null),
    );
  }, [backend]);
  useEffect(check, [check, refresh]);
  useEffect(() => {
    window.addEventListener("focus", check);
    return () => window.removeEventListener("focus", check);
  }, [check]);
  const refusedOnly = !!pending && !pending.hash;
  const key = pending ? pending.hash || `refused:${(pending.files ?? []).map((f) => f.path).join(",")}` : "";
  if (!pending || key === dismissed) return null;
  const trust = () => {
    setError("");
    backend.trust(pending.hash).then(
      () => {
        setPending(null);
        onTrusted?.();
      },
      (e) => {
        setError(String(e));
        check();
      },
    );
  };
  return (
    <section className="mcp-trust agents-trust" role="alert" aria-label={label}>
      <p>{intro}</p>
      <ul>
        {(pending.files ?? []).map((f) => (
          <li key={f.path} aria-label={fileLabel(f.path)}>
            <code>{f.path}</code>
            {f.error ? <> — {f.error}</> : describe(f)}
          </li>
        ))}
      </ul>
      <p>{refusedOnly ? refusedNote : `${caution} Files marked refused never load.`}</p>
      {error && <p className="mcp-error" role="alert">{error}</p>}
      <div className="mcp-buttons">
        <button type="button" onClick={() => setDismissed(key)}>{refusedOnly ? "Dismiss" : "Not now"}</button>
        {!refusedOnly && <button type="button" className="primary" onClick={trust}>Trust</button>}
      </div>
    </section>
  );
}
