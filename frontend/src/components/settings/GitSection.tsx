import { useCallback, useEffect, useId, useState } from "react";
import { SaveBar, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

const list = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean).join(", ");

/** Git: the trailer commits from the Changes view carry (none unless set here), and what new worktrees get copied. */
export function GitSection({ deps, setDirty }: SectionProps) {
  const { git } = deps;
  const id = useId();
  const [saved, setSaved] = useState<{ trailer: string; copy: string } | null>(null);
  const [trailer, setTrailer] = useState("");
  const [copy, setCopy] = useState("");
  useEffect(() => {
    if (!git) return;
    Promise.all([git.commitTrailer(), git.worktrees().then((w) => (w.copy ?? []).join(", "), () => "")]).then(([t, c]) => {
      setSaved({ trailer: t, copy: c });
      setTrailer(t);
      setCopy(c);
    }, () => setSaved({ trailer: "", copy: "" }));
  }, [git]);
  const dirty = saved !== null && (trailer.trim() !== saved.trailer || list(copy) !== saved.copy);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    await git?.setCommitTrailer(trailer.trim());
    await git?.setWorktreeCopy(list(copy).split(", ").filter(Boolean));
    setSaved({ trailer: trailer.trim(), copy: list(copy) });
  }, [git, trailer, copy]));
  if (!git) return <p className="settings-note">Git is not available in this window.</p>;
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      <label htmlFor={`${id}-trailer`}>Commit trailer</label>
      <input id={`${id}-trailer`} className="mono" value={trailer} placeholder="none" disabled={saved === null}
        onInput={(e) => (setTrailer((e.target as HTMLInputElement).value), save.reset())} aria-describedby={`${id}-trailer-note`} />
      <p id={`${id}-trailer-note`} className="settings-note">
        Empty: commits made in the Changes view carry no trailer at all. One "Key: value" line (for example
        "Assisted-by: Gatehouse") is added to each of them.
      </p>
      <label htmlFor={`${id}-copy`}>Copy into new worktrees</label>
      <input id={`${id}-copy`} className="mono" value={copy} placeholder=".env, .env.local" disabled={saved === null}
        onInput={(e) => (setCopy((e.target as HTMLInputElement).value), save.reset())} aria-describedby={`${id}-copy-note`} />
      <p id={`${id}-copy-note`} className="settings-note">
        Untracked files (comma-separated, relative to the repository) copied from the main worktree into each new worktree session.
      </p>
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
