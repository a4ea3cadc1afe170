import { useEffect, useId, useState } from "react";
import type { GitBackend, WorktreeEnding, WorktreeSessions } from "../../bridge/git";

/**
 * Worktree sessions: in the main worktree, start one (its own folder and
 * branch) or open one; in a worktree session, merge it into the branch it
 * came from, keep its branch, or discard it (after a confirmation listing
 * what would be lost). Every change of folder opens that folder as the
 * window's workspace (onSwitched).
 */
export function Worktrees({ git, refresh, untrusted = false, onSwitched, onMerged }: {
  git: GitBackend;
  refresh: unknown;
  /**
   * The repository's git settings are not trusted: a merge that would need
   * its hooks, signing, filters or drivers is refused until they are, and
   * the trust banner (GitTrust) shows them.
   */
  untrusted?: boolean;
  /** The window's workspace changed: the frame reads its state again. */
  onSwitched: () => void;
  /** A merge landed: the view reads git again. */
  onMerged: () => void;
}) {
  const [wt, setWt] = useState<WorktreeSessions | null>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const [lose, setLose] = useState<WorktreeEnding | null>(null);
  const id = useId();
  useEffect(() => {
    let live = true;
    git.worktrees().then((w) => live && setWt(w), () => live && setWt(null));
    return () => {
      live = false;
    };
  }, [git, refresh]);

  const run = async (f: () => Promise<unknown>, after?: () => void) => {
    setBusy(true);
    setError("");
    try {
      await f();
      after?.();
    } catch (e) {
      setError(String(e));
    } finally {
      setBusy(false);
    }
  };
  if (!wt) return null;
  const current = (wt.list ?? []).find((w) => w.name === wt.current);
  const where = `${wt.main}.worktrees/`;
  return (
    <section className="changes-worktrees" aria-labelledby={`${id}-h`}>
      {current ? (
        <>
          <h3 id={`${id}-h`}>Worktree session {current.name}</h3>
          <p className="settings-note">
            Branch <span className="mono">{current.branch}</span> from <span className="mono">{current.base}</span>, in{" "}
            <span className="mono">{current.path}</span>. The main worktree is not touched until you merge.
          </p>
          <div className="changes-commit-row">
            <button type="button" className="secondary" disabled={busy}
              onClick={() => run(async () => {
                const m = await git.mergeWorktree();
                setNote(m.commits?.length ? `Merged ${m.commits.length} commit(s) into ${m.base}.` : `Nothing to merge: ${m.base} has every commit.`);
              }, onMerged)}>Merge into {current.base}</button>
            <button type="button" className="secondary" disabled={busy} onClick={() => run(() => git.endWorktree(false, false), onSwitched)}>
              Keep the branch, remove the worktree
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => run(async () => {
              const l = await git.endWorktree(true, false);
              if (l) setLose(l);
              else onSwitched();
            })}>Discard…</button>
            <button type="button" className="secondary" disabled={busy} onClick={() => run(() => git.openWorktree(""), onSwitched)}>
              Back to the main worktree
            </button>
          </div>
          {untrusted && (
            <p className="settings-note" role="note">
              This repository's git settings are not trusted: a merge that would run its hooks, signing, filters or merge
              drivers waits until you trust them (below, with every file they cover); one that needs none of them runs now.
            </p>
          )}
          {lose && (
            <div role="alertdialog" aria-labelledby={`${id}-lose`} className="changes-trust">
              <p id={`${id}-lose`}>Discarding removes the worktree and the branch {current.branch}, and with them:</p>
              <ul className="mono">
                {(lose.commits ?? []).map((c) => <li key={c}>commit {c}</li>)}
                {(lose.uncommitted ?? []).map((f) => <li key={f}>uncommitted changes to {f}</li>)}
              </ul>
              <button type="button" className="secondary" onClick={() => setLose(null)}>Cancel</button>{" "}
              <button type="button" className="danger" disabled={busy} onClick={() => run(() => git.endWorktree(true, true), onSwitched)}>Discard them</button>
            </div>
          )}
        </>
      ) : (
        <>
          <h3 id={`${id}-h`}>Worktree sessions</h3>
          <form className="changes-commit-row" onSubmit={(e) => {
            e.preventDefault();
            void run(() => git.newWorktree(name.trim()), () => (setName(""), onSwitched()));
          }}>
            <label htmlFor={`${id}-name`}>New session in a worktree</label>
            <input id={`${id}-name`} className="mono" value={name} placeholder="name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <button type="submit" className="secondary" disabled={busy || name.trim() === ""}>Start</button>
          </form>
          <p className="settings-note">
            Its folder is <span className="mono">{where}{name.trim() || "NAME"}</span>, beside the repository: not inside it, where the
            file tree and the agent would see a second copy, and not in Gatehouse's own folders, which the boundary refuses. Its
            branch is <span className="mono">gatehouse/{name.trim() || "NAME"}</span> from the current branch
            {(wt.copy ?? []).length > 0 && <>; {(wt.copy ?? []).join(", ")} copied in</>}.
          </p>
          {(wt.list ?? []).length > 0 && (
            <ul className="changes-files" aria-label="Worktree sessions">
              {(wt.list ?? []).map((w) => (
                <li key={w.name} className="changes-file-row">
                  <span className="mono">{w.name}</span>
                  <span className="changes-counts mono">{w.branch} from {w.base}</span>
                  {w.missing && <span className="badge badge-warn">folder gone</span>}
                  <span className="spacer" />
                  {!w.missing && <button type="button" className="secondary" disabled={busy} onClick={() => run(() => git.openWorktree(w.name), onSwitched)}
                    aria-label={`Open worktree session ${w.name}`}>Open</button>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {note && <p role="status" className="changes-note">{note}</p>}
      {error && <p role="alert" className="changes-error">{error}</p>}
    </section>
  );
}
