import { useState } from "react";
import type { TranscriptItem } from "../bridge";
import { useChatActions } from "./ChatActions";
import { networkUse } from "./toolSummary";

/**
 * A command's use of the network proxy (or web_fetch's refusal): the domains
 * reached, and each refused with one click to allow it for the session, or
 * always: added to Settings → Network's allow-list once the user has read
 * what that adds and confirmed it.
 */
export function NetworkLine({ item }: { item: TranscriptItem }) {
  const use = networkUse(item);
  const { allowDomain, allowDomainAlways } = useChatActions();
  const [allowed, setAllowed] = useState<string[]>([]);
  const [always, setAlways] = useState<string[]>([]);
  // The domain whose "always" is waiting for the user's confirmation.
  const [confirming, setConfirming] = useState("");
  const [error, setError] = useState("");
  if (!use) return null;
  const allow = (d: string) => {
    setError("");
    allowDomain?.(d).then(() => setAllowed((a) => [...a, d]), (e) => setError(`Could not allow ${d}: ${String(e)}`));
  };
  const allowAlways = (d: string) => {
    setError("");
    allowDomainAlways?.(d).then(() => { setAlways((a) => [...a, d]); setConfirming(""); },
      (e) => setError(`Could not add ${d} to the allow-list: ${String(e)}`));
  };
  return (
    <div className="tool-network" role="note" aria-label="Network">
      Network:{use.reached.length > 0 && <> reached <span className="mono">{use.reached.join(", ")}</span>.</>}
      {use.refused.map((d) => (
        <span key={d} className="tool-network-refused">
          {" "}Refused <span className="mono">{d}</span> (not on the network allow-list).{" "}
          {always.includes(d) ? <span>Added to the network allow-list (Settings → Network): every session may reach it.</span>
            : allowed.includes(d) ? <span>Allowed for this session: the next call may reach it.</span>
            : allowDomain && <button type="button" className="link-button" onClick={() => allow(d)}>Allow {d} for this session</button>}
          {!always.includes(d) && allowDomainAlways && confirming !== d && (
            <>{" "}<button type="button" className="link-button" onClick={() => setConfirming(d)}>Allow {d} always…</button></>
          )}
          {confirming === d && (
            <span role="group" aria-label={`Allow ${d} always`}>
              {" "}Adds <span className="mono">{d}</span> to the network allow-list in Settings → Network: from now on every session,
              in every workspace, and its commands and web_fetch may reach exactly {d} (not its subdomains). You can remove it there.{" "}
              <button type="button" className="secondary" onClick={() => allowAlways(d)}>Add to the allow-list</button>{" "}
              <button type="button" className="link-button" onClick={() => setConfirming("")}>Cancel</button>
            </span>
          )}
        </span>
      ))}
      {error && <span className="settings-error" role="alert"> {error}</span>}
    </div>
  );
}
