import { useCallback, useEffect, useId, useState } from "react";
import { SaveBar, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

/** Git: the trailer commits from the Changes view carry (none unless set here). */
export function GitSection({ deps, setDirty }: SectionProps) {
  const { git } = deps;
  const id = useId();
  const [saved, setSaved] = useState<string | null>(null);
  const [trailer, setTrailer] = useState("");
  useEffect(() => {
    git?.commitTrailer().then((t) => (setSaved(t), setTrailer(t)), () => setSaved(""));
  }, [git]);
  const dirty = saved !== null && trailer.trim() !== saved;
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  const save = useSave(useCallback(async () => {
    await git?.setCommitTrailer(trailer.trim());
    setSaved(trailer.trim());
  }, [git, trailer]));
  if (!git) return <p className="settings-note">Git is not available in this window.</p>;
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      <label htmlFor={`${id}-trailer`}>Commit trailer</label>
      <input id={`${id}-trailer`} className="mono" value={trailer} placeholder="none" disabled={saved === null}
        onChange={(e) => (setTrailer(e.target.value), save.reset())} aria-describedby={`${id}-trailer-note`} />
      <p id={`${id}-trailer-note`} className="settings-note">
        Empty: commits made in the Changes view carry no trailer at all. One "Key: value" line (for example
        "Assisted-by: Gatehouse") is added to each of them.
      </p>
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
