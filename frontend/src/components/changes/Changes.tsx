import { useCallback, useEffect, useId, useState } from "react";
import type { Diagnostic } from "../../bridge";
import type { GitBackend, GitView } from "../../bridge/git";
import { ChangesFile, type FileKind } from "./ChangesFile";
import { CommitBox } from "./CommitBox";
import { GitTrust } from "./GitTrust";
import { Worktrees } from "./Worktrees";
import { ReviewPanel } from "./ReviewPanel";
import type { ReviewBackend, ReviewTarget } from "../../bridge/review";
import "./Changes.css";

/**
 * The Changes view: the workspace's working tree against HEAD, as git
 * splits it (staged, unstaged, untracked), in the app's diff view, with
 * stage, unstage and discard per file and per hunk, and the commit form.
 * It reads the changes again after each action and when files change on
 * disk (refresh changes).
 */
/** ", 2 errors" ("" for none): what a file row's name adds. */
const errorWords = (n = 0) => (n === 0 ? "" : n === 1 ? ", 1 error" : `, ${n} errors`);

export function Changes({ git, refresh, onClose, onUndo, onSwitched, image, errors, review }: {
  git: GitBackend;
  /** The language servers' errors now, by path: changed files that have some are marked. */
  errors?: ReadonlyMap<string, readonly Diagnostic[]>;
  /** Changes when the workspace's files change: the view reads git again. */
  refresh: unknown;
  onClose: () => void;
  /** Opens the undo dialog for a discard's unit. */
  onUndo?: (unit: string) => void;
  /** The window's workspace changed (a worktree session started or ended). */
  onSwitched?: () => void;
  /** A workspace image as a data URL: changed pictures are shown, not "binary". */
  image?: (path: string) => Promise<string>;
  /** Review with the model (absent: not offered): the backend, how Fix sends a message to the session's agent, and what to review at once (a turn's Review…). */
  review?: { backend: ReviewBackend; fix: (text: string) => Promise<unknown>; target?: ReviewTarget };
}) {
  const [reviewing, setReviewing] = useState(!!review?.target);
  const [view, setView] = useState<GitView | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [discarded, setDiscarded] = useState<{ unit: string; what: string } | null>(null);
  const [n, setN] = useState(0);
  const titleId = useId();

  const reload = useCallback(() => setN((x) => x + 1), []);
  useEffect(() => {
    let live = true;
    git.changes().then((v) => live && (setView(v), setError("")), (e) => live && setError(`Could not read the changes: ${String(e)}`));
    return () => {
      live = false;
    };
  }, [git, refresh, n]);

  const act = async (what: "stage" | "unstage" | "discard", path: string, hunk?: { id: string; n: number }) => {
    setBusy(true);
    setError("");
    try {
      if (what === "stage") await (hunk ? git.stageHunk(path, hunk.id) : git.stageFile(path));
      else if (what === "unstage") await (hunk ? git.unstageHunk(path, hunk.id) : git.unstageFile(path));
      else {
        const unit = await (hunk ? git.discardHunk(path, hunk.id) : git.discardFile(path));
        if (unit) setDiscarded({ unit, what: hunk ? `hunk ${hunk.n} of ${path}` : `the changes to ${path}` });
      }
    } catch (e) {
      setError(String(e));
    } finally {
      setBusy(false);
      reload();
    }
  };

  const c = view?.changes;
  const files = (kind: FileKind, list: GitView["changes"]["staged"]) => (
    <ul className="changes-files">
      {(list ?? []).map((f) => <ChangesFile key={`${kind}:${f.path}`} file={f} kind={kind} busy={busy} act={act} image={image} errors={errors?.get(f.path)} />)}
    </ul>
  );
  return (
    <section className="changes" aria-labelledby={titleId}>
      <header className="changes-head">
        <h2 id={titleId}>Changes</h2>
        {c && (
          <span className="changes-branch" aria-label="Branch">
            <span className="mono">{c.branch || `detached at ${c.head}`}</span>
            {c.upstream && <span className="mono changes-ab" title={`against ${c.upstream}`}> ↑{c.ahead} ↓{c.behind} {c.upstream}</span>}
          </span>
        )}
        <span className="spacer" />
        {review && !view?.notRepo && (
          <button type="button" className="secondary" aria-expanded={reviewing} onClick={() => setReviewing((r) => !r)}>Review…</button>
        )}
        <button type="button" className="secondary" onClick={reload} disabled={busy}>Refresh</button>
        <button type="button" className="secondary" onClick={onClose}>Close</button>
      </header>
      {error && <p role="alert" className="changes-error">{error}</p>}
      {review && reviewing && <ReviewPanel review={review.backend} fix={review.fix} refresh={`${String(refresh)}:${n}`} initial={review.target} />}
      {discarded && (
        <p role="status" className="changes-note">
          Discarded {discarded.what}. {onUndo && <button type="button" className="link-button" onClick={() => onUndo(discarded.unit)}>Undo the discard</button>}
        </p>
      )}
      {view === null ? !error && <p className="settings-note">Reading git…</p>
        : view.gone ? (
          <div className="changes-body">
            <p role="alert" className="changes-error">{view.gone}</p>
            {onSwitched && <Worktrees git={git} refresh={n} onSwitched={onSwitched} onMerged={reload} />}
          </div>
        )
        : view.notRepo ? (review?.target ? null : <p className="settings-note">This folder is not a git repository: there are no changes to review here.</p>)
        : c && (
          <div className="changes-body">
            {onSwitched && <Worktrees git={git} refresh={`${String(refresh)}:${n}`} untrusted={c.safe} onSwitched={onSwitched} onMerged={reload} />}
            {c.safe && <GitTrust git={git} settings={view.settings} onTrusted={reload} />}
            <h3>Staged ({(c.staged ?? []).length})</h3>
            {(c.staged ?? []).length ? files("staged", c.staged) : <p className="settings-note">Nothing staged: stage a file or a hunk below to commit it.</p>}
            <h3>Not staged ({(c.unstaged ?? []).length + (c.untracked ?? []).length})</h3>
            {(c.unstaged ?? []).length + (c.untracked ?? []).length === 0 && <p className="settings-note">No changes in the working tree.</p>}
            {files("unstaged", c.unstaged)}
            {(c.untracked ?? []).length > 0 && (
              <ul className="changes-files" aria-label="Untracked files">
                {(c.untracked ?? []).map((p) => (
                  <li key={p} className="changes-file changes-file-row" aria-label={`${p}, untracked${errorWords(errors?.get(p)?.length)}`}>
                    <span className="mono changes-path">{p}</span>
                    <span className="badge" title="untracked">?</span>
                    {errorWords(errors?.get(p)?.length) && <span className="badge changes-errors">⚠ {errorWords(errors?.get(p)?.length).slice(2)}</span>}
                    <span className="spacer" />
                    <button type="button" className="secondary" disabled={busy} onClick={() => act("stage", p)} aria-label={`Stage ${p}`}>Stage</button>
                    <button type="button" className="secondary" disabled={busy} onClick={() => act("discard", p)} aria-label={`Delete the untracked ${p}`}>Delete</button>
                  </li>
                ))}
              </ul>
            )}
            {c.against && (
              <section aria-label={`Branch ${c.branch} against ${c.against.base}`}>
                <h3>Branch {c.branch} against {c.against.base} ({(c.against.commits ?? []).length} commit{(c.against.commits ?? []).length === 1 ? "" : "s"})</h3>
                <ul className="changes-commits mono">{(c.against.commits ?? []).map((m) => <li key={m}>{m}</li>)}</ul>
                {files("branch", c.against.files)}
              </section>
            )}
            <CommitBox git={git} staged={(c.staged ?? []).length} lastMessage={view.lastMessage} trusted={!c.safe} onCommitted={reload} />
          </div>
        )}
    </section>
  );
}
