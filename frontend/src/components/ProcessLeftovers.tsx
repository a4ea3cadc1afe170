import { useEffect, useState } from "react";
import type { Leftover, LeftoverBackend } from "../bridge/sandbox";

/**
 * Process groups a crashed run of the app left running, each with Stop.
 * Nothing shows when there are none.
 */
export function ProcessLeftovers({ backend }: { backend: LeftoverBackend }) {
  const [left, setLeft] = useState<Leftover[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    backend.list().then(setLeft, () => setLeft([]));
  }, [backend]);
  if (left.length === 0 && !error) return null;
  const stop = (id: string) =>
    backend.stop(id).then((l) => { setLeft(l); setError(null); }, (e) => setError(`Could not stop it: ${String(e)}`));
  return (
    <section className="proc-leftovers" aria-label="Left from the last run">
      <h3>Left from the last run</h3>
      <ul>
        {left.map((l) => (
          <li key={l.id}>
            <code className="mono" title={l.cwd}>{l.command}</code>
            <span className="proc-leftover-pids">{(l.pids ?? []).length === 1 ? "1 process" : `${(l.pids ?? []).length} processes`}</span>
            <button onClick={() => void stop(l.id)} aria-label={`Stop ${l.command}`}>Stop</button>
          </li>
        ))}
      </ul>
      {error && <p className="proc-error" role="alert">{error}</p>}
    </section>
  );
}
