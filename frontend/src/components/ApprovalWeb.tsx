import type { WebPreview } from "../bridge";

/**
 * A web_fetch call: the full URL (and the raw URL fetched instead, for a
 * GitHub file page), its domain, and whether this session fetched from
 * that domain before.
 */
export function ApprovalWeb({ web }: { web: WebPreview }) {
  return (
    <dl className="approval-mcp approval-web" aria-label="Web fetch" tabIndex={0} data-autofocus>
      <dt>URL</dt>
      <dd><code>{web.url}</code></dd>
      {web.fetchUrl && (
        <>
          <dt>Fetches</dt>
          <dd><code>{web.fetchUrl}</code></dd>
        </>
      )}
      <dt>Domain</dt>
      <dd>
        <strong>{web.domain}</strong>{" "}
        {web.newDomain
          ? <span className="approval-web-new">new to this session</span>
          : <span className="approval-web-seen">fetched from before in this session</span>}
      </dd>
      <dt>Method</dt>
      <dd>GET, public addresses only; the page comes back to the model as untrusted content</dd>
    </dl>
  );
}
