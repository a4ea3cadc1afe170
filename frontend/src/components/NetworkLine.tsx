import { useState } from "react";
import type { TranscriptItem } from "../bridge";
import { useChatActions } from "./ChatActions";
import { networkUse } from "./toolSummary";

/** A command's use of the network proxy (or web_fetch's refusal): the domains reached, and each refused with one click to allow it for the session. */
export function NetworkLine({ item }: { item: TranscriptItem }) {
  const use = networkUse(item);
  const { allowDomain } = useChatActions();
  const [allowed, setAllowed] = useState<string[]>([]);
  const [error, setError] = useState("");
  if (!use) return null;
  const allow = (d: string) => {
    setError("");
    allowDomain?.(d).then(() => setAllowed((a) => [...a, d]), (e) => setError(`Could not allow ${d}: ${String(e)}`));
  };
  return (
    <div className="tool-network" role="note" aria-label="Network">
      Network:{use.reached.length > 0 && <> reached <span className="mono">{use.reached.join(", ")}</span>.</>}
      {use.refused.map((d) => (
        <span key={d} className="tool-network-refused">
          {" "}Refused <span className="mono">{d}</span> (not on the network allow-list).{" "}
          {allowed.includes(d) ? <span>Allowed for this session: the next call may reach it.</span>
            : allowDomain && <button type="button" className="link-button" onClick={() => allow(d)}>Allow {d} for this session</button>}
        </span>
      ))}
      {error && <span className="settings-error" role="alert"> {error}</span>}
    </div>
  );
}
