import { useState } from "react";
import type { McpResourceRead, TranscriptItem } from "../bridge";
import { CodeBlock } from "./CodeBlock";
import { useChatActions } from "./ChatActions";

/** A resource an MCP result links or embeds (the result's "resources"). */
export interface ResultResource {
  server: string;
  uri: string;
  name?: string;
  mimeType?: string;
  embedded?: boolean;
}

/** The resources an MCP call's result links or embeds; none for any other call. */
export function resultResources(item: TranscriptItem): ResultResource[] {
  if (!item.tool?.startsWith("mcp__") || item.running) return [];
  const r = item.result as { resources?: unknown } | undefined;
  if (!r || typeof r !== "object" || !Array.isArray(r.resources)) return [];
  return r.resources.filter((x): x is ResultResource => !!x && typeof x === "object" && typeof x.uri === "string" && typeof x.server === "string");
}

/** The card's list of linked and embedded resources, each opened (read from its server) in place on request. */
export function ToolResources({ item }: { item: TranscriptItem }) {
  const list = resultResources(item);
  const { readResource } = useChatActions();
  if (list.length === 0) return null;
  return (
    <div className="tool-section">
      <div className="tool-section-title">Resources</div>
      <ul className="tool-resources" aria-label="Resources">
        {list.map((r, i) => <ResourceRow key={`${r.uri} ${i}`} r={r} read={readResource} />)}
      </ul>
    </div>
  );
}

function ResourceRow({ r, read }: { r: ResultResource; read?: (server: string, uri: string) => Promise<McpResourceRead> }) {
  const [shown, setShown] = useState<McpResourceRead | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const label = r.name || r.uri;
  const open = () => {
    if (!read) return;
    setBusy(true);
    setError("");
    read(r.server, r.uri)
      .then(setShown, (e) => setError(String(e instanceof Error ? e.message : e)))
      .finally(() => setBusy(false));
  };
  return (
    <li aria-label={`Resource ${label}`}>
      <span className="mono">{label}</span>
      {r.name && <span className="slash-desc"> {r.uri}</span>}
      {r.mimeType && <span className="slash-source"> · {r.mimeType}</span>}
      {r.embedded && <span className="slash-source"> · embedded</span>}{" "}
      {read && !shown && (
        <button type="button" className="link-button" disabled={busy} onClick={open}>{busy ? "Opening…" : `Open ${label}`}</button>
      )}
      {shown && (
        <button type="button" className="link-button" onClick={() => setShown(null)}>Close</button>
      )}
      {error && <div className="tool-error" role="alert">{error}</div>}
      {shown?.contents?.map((c, i) => (
        <div key={i} className="tool-resource-content">
          {c.text !== undefined && c.text !== "" && <CodeBlock code={c.text} language={c.uri} label={`Content of ${c.uri || r.uri}`} />}
          {c.image && <img src={`data:${c.mimeType};base64,${c.image}`} alt={`${c.uri || r.uri}`} />}
          {c.note && <div role="note">{c.note}</div>}
        </div>
      ))}
    </li>
  );
}
