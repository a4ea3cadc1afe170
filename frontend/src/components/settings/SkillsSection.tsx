import { useCallback, useEffect, useState } from "react";
import type { Skill, SkillsView } from "../../bridge/skills";
import type { SectionProps } from "./sections";

const sourceNames: Record<string, string> = {
  claude: "~/.claude/skills",
  user: "Gatehouse's skills folder",
  agents: "~/.agents/skills",
  "workspace-agents": "the workspace's .agents/skills",
  workspace: "the workspace's .gatehouse/skills",
};

/** Why a skill is not offered, or "" when it is. */
function notOffered(s: Skill): string {
  if (s.problem) return `Not offered: ${s.problem.line > 0 ? `line ${s.problem.line}: ` : ""}${s.problem.message}`;
  if (s.untrusted) return "Not offered: waiting for you to trust the workspace's skills";
  if (s.disabled) return "Off";
  if (s.shadowedBy) return `Not offered: ${s.shadowedBy} has the same name and wins`;
  return "";
}

/** Settings → Skills: every skill with its source, validity, warnings, on/off, and the workspace's waiting for trust. */
export function SkillsSection({ deps }: SectionProps) {
  const [view, setView] = useState<SkillsView | null>(null);
  const [error, setError] = useState("");
  const backend = deps.skills;
  const load = useCallback(() => {
    backend?.list().then(setView, (e) => setError(`Could not list the skills: ${String(e)}`));
  }, [backend]);
  useEffect(load, [load]);
  if (!backend) return <p className="settings-note">Open a folder to see the skills its sessions can use.</p>;
  const skills = view?.skills ?? [];
  const pending = view?.pending;
  return (
    <div className="settings-info">
      <p>
        Agent Skills from <code>~/.config/gatehouse/skills</code>, <code>~/.agents/skills</code> and, once you trust them, the
        workspace's <code>.agents/skills</code> and <code>.gatehouse/skills</code>. A later source wins a name.
      </p>
      {error && <p className="settings-error" role="alert">{error}</p>}
      {view && (
        <label>
          <input type="checkbox" checked={view.claude}
            onChange={(e) => backend.setClaude(e.currentTarget.checked).then(setView, (err) => setError(String(err)))} />{" "}
          Also read Claude Code's <code>~/.claude/skills</code> (first, so the others win a name)
        </label>
      )}
      {pending && pending.Hash && (
        <div className="settings-pending" role="region" aria-label="Workspace skills waiting for trust">
          <p>This workspace has its own skills: their instructions steer the model and their scripts may be run. Trust them as they are now?</p>
          <ul>{(pending.Files ?? []).map((f) => <li key={f}><code>{f}</code></li>)}</ul>
          <button type="button" onClick={() => backend.trust(pending.Hash).then(load, (e) => setError(String(e)))}>Trust the workspace's skills</button>
        </div>
      )}
      {view === null ? (
        <p className="settings-note">Reading the skills…</p>
      ) : skills.length === 0 ? (
        <p className="empty">No skills found.</p>
      ) : (
        <ul className="settings-agents" aria-label="Skills">
          {skills.map((s) => {
            const why = notOffered(s);
            return (
              <li key={s.dir} data-skill={s.name}>
                <label>
                  <input type="checkbox" checked={!s.disabled} aria-label={`${s.name} on`}
                    onChange={(e) => backend.setOn(s.name, e.currentTarget.checked).then(setView, (err) => setError(String(err)))} />{" "}
                  <strong>{s.name}</strong>
                </label>{" "}
                <span className="settings-muted">{sourceNames[s.source] ?? s.source}</span>{" "}
                <span className="settings-muted">{why ? "" : "offered"}</span>
                {s.description && <div>{s.description}</div>}
                <div className="settings-muted"><code>{s.dir}</code></div>
                {s.allowedTools && <div className="settings-muted">allowed-tools: {s.allowedTools} (shown only: every call still asks as usual)</div>}
                {why && <div className="settings-error">{why}</div>}
                {(s.warnings ?? []).map((w, i) => (
                  <div key={i} className="settings-warning">Warning, line {w.line}: {w.message}</div>
                ))}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
