import { memo, useEffect, useState } from "react";
import { Markdown } from "./Markdown";
import type { SkillLoad } from "./skillCard";

/**
 * "skill NAME loaded": the skill the user chose with /name or the model's
 * skill call loaded. Its body is folded; its allowed-tools is shown only
 * (every call still passes the approval gate).
 */
export const SkillCard = memo(function SkillCard({ load, by, reveal }: { load: SkillLoad; by: "you" | "model"; reveal?: boolean }) {
  const [open, setOpen] = useState(!!reveal);
  // Find unfolds the card whose body holds the current match.
  useEffect(() => {
    if (reveal) setOpen(true);
  }, [reveal]);
  const title = `skill ${load.skill} ${load.alreadyLoaded ? "already loaded" : "loaded"}`;
  return (
    <div className="skill-card" role="group" aria-label={title}>
      <div className="skill-card-title">
        <span className="skill-card-name">{title}</span>
        <span className="skill-card-by">{by === "you" ? "chosen by you" : "loaded by the model"}</span>
      </div>
      {load.folder && <div className="skill-card-folder mono" title="Its folder, as the file tools take it">{load.folder}</div>}
      {load.allowedTools && (
        <div className="skill-card-tools" title="The skill's own claim: every call still passes the approval gate">
          allowed-tools (shown only, grants no approval): <code>{load.allowedTools}</code>
        </div>
      )}
      {load.instructions !== undefined && (
        <details className="skill-card-body" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary>Instructions{load.files?.length ? ` (${load.files.length} file${load.files.length > 1 ? "s" : ""} beside them)` : ""}</summary>
          <Markdown text={load.instructions} />
          {load.files?.length ? <div className="skill-card-files mono">{load.files.join(", ")}</div> : null}
        </details>
      )}
    </div>
  );
});
