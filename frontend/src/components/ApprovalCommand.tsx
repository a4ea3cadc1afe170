import type { CommandPreview, CommandSegment } from "../bridge";
import { CodeBlock } from "./CodeBlock";
import { useChatActions } from "./ChatActions";

/**
 * The warnings of one segment in words, the worst first: what it destroys,
 * what makes git run code, what it deletes, each path it reads or writes
 * outside the workspace, the network, privileges, code that cannot be
 * checked. The backend renders them (approval.SegmentWarnings), so the
 * window, `gatehouse exec` and an ACP editor show the same lines; the
 * fallback below only serves previews made without it.
 */
export function segmentWarnings(s: CommandSegment): string[] {
  if (s.warnings) return s.warnings;
  const out: string[] = [];
  if (s.destructive) out.push(s.destructive);
  if (s.gitCode) out.push(`makes git run code: it sets ${s.gitCode}, which git runs as a command later`);
  if (s.deletes) out.push("deletes files");
  const where = (p: string) => (s.protectedPaths?.includes(p) ? "(a protected place)" : "(outside the workspace)");
  for (const p of s.readsOutside ?? []) out.push(`reads ${p} ${where(p)}`);
  for (const p of s.writesOutsideTo ?? []) out.push(`writes ${p} ${where(p)}`);
  if (s.writesOutside && !s.writesOutsideTo?.length) out.push("writes outside the workspace");
  if (s.writesGit) out.push("writes into .git (can make git run code)");
  if (s.network) out.push("uses the network");
  if (s.elevates) out.push("elevates privileges");
  if (s.opaque) out.push("runs code that cannot be checked");
  return out;
}

const actionWords: Record<string, string> = {
  exec: "exec — run and wait for it to finish",
  start: "start — run in the background as a process",
  write: "write — type into a running process",
  stop: "stop — stop a running process",
};

/**
 * A bash call: the action, the folder, and the command split into its
 * simple commands, one per line, each with its warnings in words.
 */
export function ApprovalCommand({ command }: { command: CommandPreview }) {
  const { openSettings } = useChatActions();
  const segments = command.segments ?? [];
  return (
    <div className="approval-command" tabIndex={0} data-autofocus role="group" aria-label="The command">
      <dl className="approval-facts">
        <dt>Action</dt>
        <dd>{actionWords[command.action] ?? command.action}</dd>
        {command.cwd && (<><dt>Folder</dt><dd className="mono">{command.cwd}</dd></>)}
        {command.processId && (<><dt>Process</dt><dd className="mono">{command.processId}</dd></>)}
        {(command.action === "exec" || command.action === "start") && (
          <><dt>Sandbox</dt><dd className="approval-sandbox">{command.confined
            ? (command.sandbox ?? "confined — writes only in the workspace, temp and tool caches")
            : <span className="approval-unconfined">{command.sandbox ?? "not confined — can write anywhere you can"}</span>}
            {" "}<button type="button" className="link-button" onClick={() => openSettings("sandbox")}>Sandbox settings</button></dd></>
        )}
      </dl>
      {command.command && (
        <>
          <div className="approval-section-title">Command</div>
          <pre className="approval-command-text mono">{command.command}</pre>
        </>
      )}
      {command.parseError && (
        <p className="approval-warning" role="note">⚠ Not valid shell ({command.parseError}): no rule can cover it.</p>
      )}
      {segments.length > 0 && (
        <>
          <div className="approval-section-title">{segments.length === 1 ? "1 step" : `${segments.length} steps`}</div>
          <ol className="approval-segments" aria-label="Steps">
            {segments.map((s, i) => {
              const flags = segmentWarnings(s);
              return (
                <li key={i} className={flags.length ? "warn" : undefined}>
                  <code className="mono">{s.text}</code>
                  {flags.map((w) => <span key={w} className="badge badge-warn">⚠ {w}</span>)}
                </li>
              );
            })}
          </ol>
        </>
      )}
      {command.input !== undefined && command.input !== "" && (
        <>
          <div className="approval-section-title">Input</div>
          <pre className="approval-command-text mono">{command.input}</pre>
        </>
      )}
    </div>
  );
}

/** Any other tool: its arguments, pretty-printed. */
export function ApprovalArgs({ text }: { text: string }) {
  return (
    <div className="approval-args" tabIndex={0} data-autofocus role="group" aria-label="Arguments">
      <div className="approval-section-title">Arguments</div>
      <CodeBlock code={text} language="json" />
    </div>
  );
}

/** The MCP server and tool a call goes to, with the tool's own description (the server's words). */
export function ApprovalMcp({ server, tool, description }: { server: string; tool: string; description?: string }) {
  return (
    <dl className="approval-mcp" aria-label="MCP call">
      <dt>Server</dt>
      <dd>{server}</dd>
      <dt>Tool</dt>
      <dd><code>{tool}</code></dd>
      {description && (
        <>
          <dt>Description</dt>
          <dd className="approval-mcp-desc">{description}</dd>
        </>
      )}
    </dl>
  );
}
