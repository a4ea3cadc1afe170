import { useId, useState } from "react";
import type { McpServerConfig } from "../bridge/mcp";

/** KEY=value lines (env) or "Name: value" lines (headers) to a map; "" values are kept. */
export function parsePairs(text: string, sep: "=" | ":"): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(sep);
    if (at <= 0) return `line ${i + 1}: expected ${sep === "=" ? "NAME=value" : "Name: value"}`;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function formatPairs(m: Record<string, string> | undefined, sep: "=" | ":"): string {
  return Object.entries(m ?? {}).map(([k, v]) => (sep === "=" ? `${k}=${v}` : `${k}: ${v}`)).join("\n");
}

/**
 * The Add/Edit form of one server: a command with its arguments and
 * environment, or a URL with headers. Secrets arrive masked (••••••); saving
 * a masked value unchanged keeps the real one.
 */
export function McpServerForm({ initialName, initial, onSave, onCancel }: {
  initialName: string;
  initial: McpServerConfig;
  onSave: (name: string, cfg: McpServerConfig) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(initialName);
  const [kind, setKind] = useState<"command" | "url">(initial.url ? "url" : "command");
  const [command, setCommand] = useState(initial.command ?? "");
  const [args, setArgs] = useState((initial.args ?? []).join("\n"));
  const [env, setEnv] = useState(formatPairs(initial.env, "="));
  const [url, setURL] = useState(initial.url ?? "");
  const [headers, setHeaders] = useState(formatPairs(initial.headers, ":"));
  const [timeout, setTimeoutS] = useState(initial.timeoutSeconds ? String(initial.timeoutSeconds) : "");
  const [trustHints, setTrustHints] = useState(!!initial.trustReadOnlyHints);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    const cfg: McpServerConfig = { disabled: initial.disabled, disabledTools: initial.disabledTools, trustReadOnlyHints: trustHints };
    if (timeout.trim()) {
      const n = Number(timeout);
      if (!Number.isInteger(n) || n <= 0) return setError("The timeout is a whole number of seconds.");
      cfg.timeoutSeconds = n;
    }
    if (kind === "command") {
      const pairs = parsePairs(env, "=");
      if (typeof pairs === "string") return setError(`Environment, ${pairs}`);
      cfg.command = command.trim();
      cfg.args = args.split("\n").map((a) => a.trim()).filter((a) => a !== "");
      if (Object.keys(pairs).length) cfg.env = pairs;
    } else {
      const pairs = parsePairs(headers, ":");
      if (typeof pairs === "string") return setError(`Headers, ${pairs}`);
      cfg.url = url.trim();
      if (Object.keys(pairs).length) cfg.headers = pairs;
    }
    setBusy(true);
    setError("");
    onSave(name.trim(), cfg).catch((err) => {
      setBusy(false);
      setError(String(err));
    });
  };

  return (
    <form className="mcp-form" aria-label={initialName ? `Edit ${initialName}` : "Add a server"} onSubmit={save}>
      <label>
        <span>Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <fieldset className="mcp-kind">
        <legend>Runs as</legend>
        <label><input type="radio" name={`${id}-kind`} checked={kind === "command"} onChange={() => setKind("command")} /> a program (stdio)</label>
        <label><input type="radio" name={`${id}-kind`} checked={kind === "url"} onChange={() => setKind("url")} /> a URL (streamable HTTP)</label>
      </fieldset>
      {kind === "command" ? (
        <>
          <label><span>Command</span><input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" /></label>
          <label><span>Arguments, one per line</span><textarea rows={3} value={args} onChange={(e) => setArgs(e.target.value)} /></label>
          <label><span>Environment, NAME=value per line</span><textarea rows={2} value={env} onChange={(e) => setEnv(e.target.value)} /></label>
        </>
      ) : (
        <>
          <label><span>URL</span><input value={url} onChange={(e) => setURL(e.target.value)} placeholder="https://example.com/mcp" /></label>
          <label><span>Headers, Name: value per line</span><textarea rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder="Authorization: Bearer …" /></label>
          <p className="mcp-note">Servers that only sign in with OAuth are not supported; a server that accepts a token takes it as a header.</p>
        </>
      )}
      <label><span>Call timeout in seconds (default 120)</span><input inputMode="numeric" value={timeout} onChange={(e) => setTimeoutS(e.target.value)} /></label>
      <label className="mcp-check">
        <input type="checkbox" checked={trustHints} onChange={(e) => setTrustHints(e.target.checked)} />
        Trust its read-only hints (safe mode then runs the tools it marks read-only without asking)
      </label>
      {error && <p className="mcp-error" role="alert">{error}</p>}
      <div className="mcp-buttons">
        <button type="button" onClick={onCancel}>Cancel</button>
        <button type="submit" className="primary" disabled={busy}>Save</button>
      </div>
    </form>
  );
}
