import { memo, useEffect, useId, useState } from "react";
import type { TranscriptItem } from "../bridge";
import { ChildView, useChild } from "./ChildView";
import { CodeBlock } from "./CodeBlock";
import { DiffView } from "./DiffView";
import { HookRewriteNote, HookRuns } from "./HookRuns";
import { NetworkLine } from "./NetworkLine";
import { ToolDiagnostics } from "./ToolDiagnostics";
import { ToolResources } from "./ToolResources";
import { commandOutput, fileDiffs, formatDuration, policyHiddenNote, pretty, readExcerpt, rejected, ruleText, sandboxNote, unconfinedNote, toolError, toolSummary, toolTarget, writtenPaths } from "./toolSummary";
import { useChatActions } from "./ChatActions";
import { TeamMessageCard } from "./team/TeamMessageCard";

/** "ran under your rule: `npm test`", each rule a link that opens the rules popover at it. */
function RuleLine({ item }: { item: TranscriptItem }) {
  const { showRule } = useChatActions();
  const rules = item.approval?.by === "rule" ? (item.approval.rules ?? []) : [];
  const standing = item.approval?.by === "policy" ? (item.approval.standing ?? []) : [];
  if (standing.length) {
    // The standing policy decided: which rule, in which layer and file. A
    // deny says whose policy it is (the user's own files, or the trusted
    // project file), then the rule.
    const plural = standing.length > 1 ? "s" : "";
    const lead = standing[0].decision !== "deny" ? `allowed by standing rule${plural}`
      : standing.every((r) => r.layer === "project") ? `denied by the project's policy, rule${plural}`
      : `denied by your policy, rule${plural}`;
    return (
      <div className="tool-rule">
        {lead}:{" "}
        {standing.map((r, i) => (
          <span key={r.id + i}>
            {i > 0 && ", "}
            <code>{r.summary}</code> ({r.id}, {r.layer} policy{r.file ? <>, <span className="tool-rule-file">{r.file}</span></> : null})
          </span>
        ))}
      </div>
    );
  }
  if (!rules.length) return null;
  return (
    <div className="tool-rule">
      ran under your rule{rules.length > 1 ? "s" : ""}:{" "}
      {rules.map((r, i) => (
        <span key={r.id ?? i}>
          {i > 0 && ", "}
          {showRule && r.id ? (
            <button type="button" className="link-button" onClick={() => showRule(r.id!)} title={`Show this rule: ${r.summary}`}
              aria-label={`Show rule: ${ruleText(r)}`}>
              <code>{ruleText(r)}</code>
            </button>
          ) : <code>{ruleText(r)}</code>}
        </span>
      ))}
    </div>
  );
}

// When the page first saw each running call; kept outside the card so a card
// scrolled out of a virtualised list and back keeps its elapsed time.
const firstSeen = new Map<string, number>();

function useElapsed(id: string, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  if (running && !firstSeen.has(id)) firstSeen.set(id, now);
  useEffect(() => {
    if (!running) {
      firstSeen.delete(id);
      return;
    }
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [id, running]);
  return running ? now - (firstSeen.get(id) ?? now) : 0;
}

/** One tool call: a line with tool, target, summary, status and duration; expandable to args and result. A team message is a compact card. */
export const ToolCard = memo(function ToolCard({ item, reveal }: { item: TranscriptItem; reveal?: boolean }) {
  return item.tool === "team_message" ? <TeamMessageCard item={item} /> : <CallCard item={item} reveal={reveal} />;
});

const CallCard = memo(function CallCard({ item, reveal }: { item: TranscriptItem; reveal?: boolean }) {
  const [open, setOpen] = useState(!!reveal);
  // Find unfolds the card whose body holds the current match.
  useEffect(() => {
    if (reveal) setOpen(true);
  }, [reveal]);
  const bodyId = useId();
  const tool = item.tool ?? "tool";
  const running = !!item.running;
  const elapsed = useElapsed(item.id ?? "", running);
  // A hook's rewrite is what was planned and ran: the card names its target.
  const args = item.rewrite ? item.rewrite.args : item.args;
  const target = toolTarget(tool, args);
  const summary = running ? "" : toolSummary(tool, item.result);
  const error = running ? "" : toolError(item);
  const status = running ? "running" : item.isError ? "failed" : "done";
  const time = formatDuration(running ? elapsed : (item.durationMs ?? 0));
  // The run time, never the time a dialog waited for the user; that is said apart.
  const wait = !running && item.waitMs ? formatDuration(item.waitMs) : "";
  const excerpt = open ? readExcerpt(item) : null;
  const diffs = open ? fileDiffs(item) : [];
  const output = open ? commandOutput(item) : null;
  const { undo } = useChatActions();
  const revertable = open && !running && undo && undo.units.has(item.turnId) ? writtenPaths(item) : [];
  const child = useChild(tool, item.id);

  return (
    <div className={`tool-card tool-${status}`} role="group" aria-label={`${tool} ${target}, ${status}`}>
      <button className="tool-line" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <span className="tool-chevron" aria-hidden>{open ? "▾" : "▸"}</span>
        <span className="tool-name mono">{tool}</span>
        <span className="tool-target mono" title={target}>{target}</span>
        {summary && <span className="tool-summary">{summary}</span>}
        <span className="tool-status">
          {running ? <span className="spinner" aria-hidden /> : <span aria-hidden>{item.isError ? "✗" : "✓"}</span>}
          <span className="visually-hidden">{status}</span>
        </span>
        <span className="tool-time" aria-label={running ? `running for ${time}` : `took ${time}`}
          title={wait ? `ran ${time}; waited ${wait} for your answer` : undefined}>{time}</span>
        {!running && !!item.throttledMs && (
          <span className="tool-throttled" title="The session's tool calls per minute limit held this call back">
            waited {formatDuration(item.throttledMs)} (calls per minute)
          </span>
        )}
      </button>
      {child && <ChildView child={child} />}
      {running && item.progress && <ToolProgress p={item.progress} />}
      {error && (
        <div className="tool-error">
          {error}
        </div>
      )}
      {!running && unconfinedNote(item) && <div className="tool-unconfined" role="note">Unconfined: {unconfinedNote(item)}</div>}
      {!running && sandboxNote(item) && <div className="tool-sandbox" role="note">Sandbox: {sandboxNote(item)}</div>}
      {policyHiddenNote(item) && <div className="tool-hidden" role="note">Policy: {policyHiddenNote(item)}</div>}
      <NetworkLine item={item} />
      <ToolDiagnostics item={item} open={open} />
      <RuleLine item={item} />
      <HookRuns hooks={item.hooks} folded />
      {open && (
        <div id={bodyId} className="tool-body">
          {item.approval?.by === "user" && (
            <div className="tool-approved">
              {rejected(item) ? "You rejected it" : "You approved it"}
              {wait && ` after ${wait}`}.
            </div>
          )}
          {excerpt && <CodeBlock code={excerpt.content} language={excerpt.path} label={`Excerpt of ${excerpt.path}`} startLine={excerpt.startLine} />}
          {diffs.map((d) => <DiffView key={d.path} diff={d.diff} label={d.path} />)}
          {revertable.length > 0 && (
            <div className="tool-revert">
              {revertable.map((p) => (
                <button key={p} type="button" className="link-button" onClick={() => undo!.open(item.turnId, "undo", p)}>Revert {p}</button>
              ))}
            </div>
          )}
          <HookRewriteNote rewrite={item.rewrite} shown="what ran" />
          <div className="tool-section">
            <div className="tool-section-title">{item.rewrite ? "Arguments, as the hook rewrote them" : "Arguments"}</div>
            <CodeBlock code={pretty(args)} language="json" />
          </div>
          {output && (
            <div className="tool-section">
              <div className="tool-section-title">Output</div>
              {output.stdout || !output.stderr ? <CodeBlock code={output.stdout} label="Output" /> : null}
              {output.stderr && <CodeBlock code={output.stderr} label="Error output" />}
            </div>
          )}
          {!running && !excerpt && !output && diffs.length === 0 && (
            <div className="tool-section">
              <div className="tool-section-title">Result</div>
              <CodeBlock code={pretty(item.result)} language={typeof item.result === "string" ? "" : "json"} />
            </div>
          )}
          <ToolResources item={item} />
        </div>
      )}
    </div>
  );
});

/** A running call's progress, as its server reported it (MCP notifications/progress). */
function ToolProgress({ p }: { p: { progress: number; total?: number; message?: string } }) {
  const label = p.total ? `${p.progress} of ${p.total}` : `${p.progress}`;
  return (
    <div className="tool-progress" role="status" aria-label={`progress ${label}`}>
      {p.total ? <progress value={p.progress} max={p.total} /> : null}
      <span>{label}{p.message ? ` · ${p.message}` : ""}</span>
    </div>
  );
}
