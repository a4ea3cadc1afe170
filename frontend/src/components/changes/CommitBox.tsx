import { useId, useState } from "react";
import type { GitBackend, GitCommit } from "../../bridge/git";

/**
 * The commit form: a message the user writes or has the model draft (shown
 * here for editing, never committed unseen), amend, and commit. Committing
 * is the user's own action and says so.
 */
export function CommitBox({ git, staged, lastMessage, trusted, onCommitted }: {
  git: GitBackend;
  /** How many files are staged. */
  staged: number;
  /** The last commit's message, put in the field when amending starts. */
  lastMessage: string;
  /** The repository's git settings are trusted (commit runs its hooks). */
  trusted: boolean;
  onCommitted: (c: GitCommit) => void;
}) {
  const [message, setMessage] = useState("");
  const [amend, setAmend] = useState(false);
  const [busy, setBusy] = useState<"" | "draft" | "commit">("");
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const id = useId();

  const draft = async () => {
    setBusy("draft");
    setError("");
    setNote("");
    try {
      setMessage(await git.draftMessage());
      setNote("The model's draft: edit it, then commit.");
    } catch (e) {
      setError(`The model could not draft a message: ${String(e)}`);
    } finally {
      setBusy("");
    }
  };
  const commit = async () => {
    setBusy("commit");
    setError("");
    setNote("");
    try {
      const c = await git.commit(message, amend);
      setMessage("");
      setAmend(false);
      setNote(`Committed ${c.hash}: ${c.subject}`);
      onCommitted(c);
    } catch (e) {
      setError(String(e));
    } finally {
      setBusy("");
    }
  };
  const canCommit = trusted && busy === "" && (amend || (staged > 0 && message.trim() !== ""));
  return (
    <section className="changes-commit" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Commit</h3>
      <label htmlFor={`${id}-msg`} className="visually-hidden">Commit message</label>
      <textarea id={`${id}-msg`} className="mono" rows={5} value={message} placeholder="Commit message" disabled={busy !== ""}
        onChange={(e) => setMessage(e.target.value)} />
      <div className="changes-commit-row">
        <button type="button" className="secondary" onClick={draft} disabled={busy !== "" || staged === 0}
          title={staged === 0 ? "Stage something first" : "The model reads the staged diff and writes a message for you to edit"}>
          {busy === "draft" ? "Drafting…" : "Draft with the model"}
        </button>
        <label className="changes-amend">
          <input type="checkbox" checked={amend} disabled={busy !== ""} onChange={(e) => {
            setAmend(e.target.checked);
            if (e.target.checked && message.trim() === "") setMessage(lastMessage);
          }} /> Amend last commit
        </label>
        <span className="spacer" />
        <button type="button" className="primary" onClick={commit} disabled={!canCommit}>
          {busy === "commit" ? "Committing…" : amend ? "Amend" : "Commit"}
        </button>
      </div>
      <p className="settings-note">
        Committing is your action, not the agent's: it does not pass the approval gate. It runs your git, with your
        identity, signing and the repository's hooks; no trailer is added unless you set one in Settings → Git.
      </p>
      {note && <p role="status" className="changes-note">{note}</p>}
      {error && <pre role="alert" className="changes-error">{error}</pre>}
    </section>
  );
}
