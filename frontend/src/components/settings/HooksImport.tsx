import { useState } from "react";
import type { ClaudeImport, HooksBackend, HooksView, ImportCandidate } from "../../bridge/hooks";

/** What a candidate is, in words, beside its command. */
function mark(c: ImportCandidate): string {
  if (c.skip) return `Cannot be imported: ${c.skip}`;
  if (c.duplicate) return "Already in your hooks";
  if (c.wouldBlock) return `Would now BLOCK: ${c.wouldBlock}`;
  if (c.failsClosed && c.checked) return `Checked on a sample: ${c.checked.verdict}, exit code ${c.checked.exitCode}`;
  if (c.failsClosed) return "A failure would block here (Claude Code goes on)";
  return "";
}

const importable = (c: ImportCandidate) => !c.skip && !c.duplicate;

/**
 * Import from Claude Code: reads the hooks of its settings file, shows each
 * command before anything is written, runs the ones that would fail closed
 * here once on a sample call on request and marks those that would now
 * block, then writes the ticked ones into your hooks file, merged.
 */
export function HooksImport({ backend, defaultFrom, into, onImported }: {
  backend: HooksBackend; defaultFrom: string; into: string; onImported: (v: HooksView) => void;
}) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(defaultFrom);
  const [im, setIm] = useState<ClaudeImport | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [goOn, setGoOn] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState("");
  const [error, setError] = useState("");
  const [done, setDone] = useState("");

  const read = (check: boolean) => {
    setBusy(check ? "Running each hook that fails closed on a sample call…" : "Reading…");
    setError("");
    setDone("");
    backend.importPreview(from, check).then((r) => {
      setIm(r);
      if (!check) setPicked(new Set((r.candidates ?? []).filter(importable).map((c) => c.key)));
    }, (e) => { setIm(null); setError(String(e)); }).finally(() => setBusy(""));
  };
  const toggle = (set: Set<string>, key: string, on: boolean) => {
    const n = new Set(set);
    if (on) n.add(key); else n.delete(key);
    return n;
  };
  const cands = im?.candidates ?? [];
  const chosen = cands.filter((c) => importable(c) && picked.has(c.key));
  const write = () => {
    setBusy("Importing…");
    setError("");
    backend.importHooks(from, chosen.map((c) => ({ key: c.key, continueOnError: goOn.has(c.key) }))).then((v) => {
      onImported(v);
      setDone(`Imported ${chosen.length === 1 ? "1 hook" : `${chosen.length} hooks`} into ${into}. Sessions opened from now on run them.`);
      setIm(null);
    }, (e) => setError(String(e))).finally(() => setBusy(""));
  };

  if (!open) {
    return (
      <div className="hooks-import-open">
        <button type="button" onClick={() => setOpen(true)}>Import from Claude Code…</button>
        {done && <p role="status">{done}</p>}
      </div>
    );
  }
  return (
    <section className="settings-pending hooks-import" aria-label="Import from Claude Code">
      <p>
        Reads the <code>hooks</code> of Claude Code's settings and writes the ones you tick into <code>{into}</code>, after what is
        there. A project's <code>.claude/settings.json</code> is not imported: a workspace's hooks belong in its{" "}
        <code>.gatehouse/hooks.json</code>, where they run only once you trust them.
      </p>
      <label className="hooks-import-from">
        <span>Claude Code settings file</span>
        <input type="text" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
      </label>
      <div className="hooks-import-buttons">
        <button type="button" disabled={!!busy} onClick={() => read(false)}>Read</button>
        <button type="button" onClick={() => { setOpen(false); setIm(null); }}>Close</button>
      </div>
      {busy && <p className="settings-note" role="status">{busy}</p>}
      {error && <p className="settings-error" role="alert">{error}</p>}
      {done && <p role="status">{done}</p>}
      {im && cands.length === 0 && <p className="empty">{im.from} has no hooks.</p>}
      {im && cands.length > 0 && (
        <>
          <p>
            Claude Code goes on when a hook fails; Gatehouse blocks the call or prompt when a <code>PreToolUse</code> or{" "}
            <code>UserPromptSubmit</code> hook cannot start, times out, or exits other than 0 or 2. To see which of these would now
            block, each is run once on a sample call (shown to it, nothing runs).
          </p>
          <button type="button" disabled={!!busy} onClick={() => read(true)}>Run the blocking ones on a sample call</button>
          <ul className="settings-agents" aria-label="Hooks to import">
            {cands.map((c) => {
              const m = mark(c);
              return (
                <li key={c.key} className={c.wouldBlock ? "hooks-would-block" : undefined}>
                  <label>
                    <input type="checkbox" disabled={!importable(c)} checked={importable(c) && picked.has(c.key)}
                      aria-label={`Import ${c.command || "(no command)"}`}
                      onChange={(e) => setPicked(toggle(picked, c.key, e.currentTarget.checked))} />{" "}
                    <code className="hooks-command">{c.command || "(no command)"}</code>
                  </label>
                  <div className="settings-muted">{c.event}{c.matcher ? <> · matcher <code>{c.matcher}</code></> : null}{c.timeout ? ` · timeout ${c.timeout} s` : ""}</div>
                  {m && <div className={c.wouldBlock || c.skip ? "settings-error" : "settings-muted"}>{m}</div>}
                  {c.wouldBlock && importable(c) && (
                    <label className="settings-muted">
                      <input type="checkbox" checked={goOn.has(c.key)} onChange={(e) => setGoOn(toggle(goOn, c.key, e.currentTarget.checked))} />{" "}
                      Let calls go on when it fails, as Claude Code does (<code>"onError": "continue"</code>)
                    </label>
                  )}
                </li>
              );
            })}
          </ul>
          <button type="button" className="primary" disabled={!!busy || chosen.length === 0} onClick={write}>
            {chosen.length === 1 ? "Import 1 hook" : `Import ${chosen.length} hooks`}
          </button>
        </>
      )}
    </section>
  );
}
