import { useCallback, useEffect, useId, useState } from "react";
import type { LanguageServerView, LanguageServersView } from "../../bridge/languages";
import type { SectionProps } from "./sections";

/** "a b  c" → ["a", "b", "c"]; commas separate too. */
const words = (s: string) => s.split(/[\s,]+/).filter(Boolean);

interface Draft { name: string; command: string; args: string; patterns: string; markers: string; disabled: boolean }

const empty: Draft = { name: "", command: "", args: "", patterns: "", markers: "", disabled: false };

function draftOf(s: LanguageServerView): Draft {
  const c = s.config;
  return { name: s.name, command: c.command ?? "", args: (c.args ?? []).join(" "), patterns: (c.filePatterns ?? []).join(" "),
    markers: (c.rootMarkers ?? []).join(" "), disabled: !!c.disabled };
}

/** What is wrong with a draft before the backend is asked ("" when nothing). */
export function draftProblem(d: Draft, builtin: boolean): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(d.name)) return "Name: letters, digits, '.', '_' or '-'.";
  if (d.disabled || builtin) return "";
  if (!d.command.trim()) return "Command: the program that speaks LSP on stdin and stdout.";
  if (!words(d.patterns).length) return "File patterns: the files it checks, like *.rs.";
  return "";
}

const stateWords: Record<string, string> = {
  ready: "running", starting: "starting", crashed: "crashed", failed: "failed to start", stopped: "stopped",
  "not found": "not found on PATH", "not started": "starts on the first file it checks", off: "off",
};

/**
 * Settings → Language servers: the built-in servers (gopls, TypeScript,
 * pyright) and the user's, each with its state in the open session (a
 * crash with its last stderr lines) and where its command was found, and a
 * form for one entry (command, args, file patterns, root markers; the
 * shape of Crush's and OpenCode's lsp block), checked before it is saved.
 */
export function LanguagesSection({ deps }: SectionProps) {
  const api = deps.languages;
  const [view, setView] = useState<LanguageServersView | null>(null);
  const [error, setError] = useState("");
  const [draft, setDraft] = useState<Draft | null>(null);
  const [editing, setEditing] = useState<LanguageServerView | null>(null);
  const [saved, setSaved] = useState("");
  const formId = useId();
  const load = useCallback(() => {
    api?.list().then(setView, (e) => setError(`Could not list the language servers: ${String(e)}`));
  }, [api]);
  useEffect(load, [load]);
  if (!api) return <p className="settings-note">Language servers are not available here.</p>;

  const edit = (s: LanguageServerView | null) => {
    setEditing(s);
    setDraft(s ? draftOf(s) : { ...empty });
    setError("");
    setSaved("");
  };
  const problem = draft ? draftProblem(draft, !!editing?.builtin) : "";
  const save = () => {
    if (!draft || problem) return;
    setError("");
    api.save({ name: draft.name, config: { command: draft.command.trim() || undefined, args: words(draft.args),
      filePatterns: words(draft.patterns), rootMarkers: words(draft.markers), disabled: draft.disabled || undefined } })
      .then((v) => { setView(v); setSaved(`Saved ${draft.name}: sessions opened from now on use it.`); setDraft(null); setEditing(null); },
        (e) => setError(String(e)));
  };
  const remove = (s: LanguageServerView) =>
    api.remove(s.name).then((v) => { setView(v); setSaved(s.builtin ? `${s.name} is back to its built-in settings.` : `Removed ${s.name}.`); },
      (e) => setError(String(e)));
  const field = (key: keyof Omit<Draft, "disabled">, label: string, hint: string) => (
    <label className="settings-stack">
      <span>{label}</span>
      <input type="text" className="mono" aria-label={label} value={draft![key]} disabled={key === "name" && !!editing}
        onChange={(e) => { setDraft({ ...draft!, [key]: e.currentTarget.value }); setSaved(""); }} />
      <span className="settings-muted">{hint}</span>
    </label>
  );

  return (
    <div className="settings-info">
      <p>
        Language servers check the files the agent edits: after each edit, and in the approval dialog before you approve.
        They run confined like the agent's commands, one per language, started on the first file they check.
      </p>
      {error && <p className="settings-error" role="alert">{error}</p>}
      {saved && <p className="settings-note" role="status">{saved}</p>}
      {view === null ? <p className="settings-note">Reading the language servers…</p> : (
        <ul className="settings-agents" aria-label="Language servers">
          {(view.servers ?? []).map((s) => (
            <li key={s.name} data-server={s.name}>
              <strong>{s.name}</strong>{" "}
              <span className="settings-muted">{s.builtin ? (s.configured ? "built in, changed by you" : "built in") : "yours"}</span>{" "}
              <span className={`lsp-state lsp-${s.state.replace(" ", "-")}`}>{stateWords[s.state] ?? s.state}</span>
              {s.restarts > 0 && <span className="settings-muted"> · restarted {s.restarts}×</span>}
              <div className="settings-muted mono">{[s.config.command, ...(s.config.args ?? [])].join(" ")} · {(s.config.filePatterns ?? []).join(" ")}</div>
              {s.path && <div className="settings-muted">found at <code>{s.path}</code></div>}
              {s.error && <pre className="settings-error lsp-stderr">{s.error}</pre>}
              <button type="button" className="secondary" onClick={() => edit(s)} aria-label={`Edit ${s.name}`}>Edit</button>{" "}
              {s.configured && (
                <button type="button" className="secondary" onClick={() => void remove(s)} aria-label={s.builtin ? `Reset ${s.name}` : `Remove ${s.name}`}>
                  {s.builtin ? "Reset" : "Remove"}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!draft && <button type="button" onClick={() => edit(null)}>Add a language server</button>}
      {draft && (
        <form className="settings-form" aria-labelledby={formId} onSubmit={(e) => { e.preventDefault(); save(); }}>
          <h3 id={formId}>{editing ? `Edit ${editing.name}` : "Add a language server"}</h3>
          {field("name", "Name", "How it is listed, like rust.")}
          {field("command", "Command", editing?.builtin ? "The program; empty keeps the built-in one." : "The program, found on PATH or as an absolute path.")}
          {field("args", "Arguments", "Separated by spaces, like --stdio.")}
          {field("patterns", "File patterns", "The files it checks, like *.rs *.ron.")}
          {field("markers", "Root markers", "Files that mark a project's root, like Cargo.toml.")}
          <label>
            <input type="checkbox" checked={draft.disabled} onChange={(e) => setDraft({ ...draft, disabled: e.currentTarget.checked })} /> Off
          </label>
          {problem && <p className="settings-error" role="alert">{problem}</p>}
          <div className="settings-buttons">
            <button type="submit" className="primary" disabled={!!problem}>Save</button>{" "}
            <button type="button" className="secondary" onClick={() => { setDraft(null); setEditing(null); }}>Cancel</button>
          </div>
        </form>
      )}
    </div>
  );
}
