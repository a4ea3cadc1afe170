import { useState } from "react";
import type { UndoAppliedPayload } from "../bridge";
import type { ChangedFile } from "../bridge/files";
import { useMenu } from "./useMenu";

const originWords: Record<string, string> = {
  agent: "by the agent's file tools",
  shell: "by a command the agent ran",
  outside: "outside Gatehouse",
};
const statusWords: Record<string, string> = { added: "added", modified: "modified", deleted: "deleted" };

/** Words for a change, for aria-labels and tooltips: "modified by the agent's file tools". */
export function describeChange(c: ChangedFile): string {
  const who = (c.origins?.length ? c.origins : [c.origin]).map((o) => originWords[o] ?? o).join(", then ");
  return `${statusWords[c.status] ?? c.status} ${who}`;
}

/** The A / M / D badge: a letter (never colour alone) with its meaning in words. */
export function Badge({ change }: { change: ChangedFile }) {
  const words = describeChange(change);
  return (
    <span className={`badge badge-${change.badge} origin-${change.origin}`} aria-label={words} title={words}>
      {change.badge}
    </span>
  );
}

/**
 * The badge of a changed file as a menu button (the "Changed in this
 * session" list): its menu reverts the file to its content before the
 * session. A file changed since the agent's last change is not overwritten
 * unless the user says so again.
 */
export function BadgeMenu({ change, revert }: {
  change: ChangedFile;
  revert: (path: string, restoreChanged: boolean) => Promise<UndoAppliedPayload>;
}) {
  const menu = useMenu('[role="menuitem"]');
  const [message, setMessage] = useState<{ text: string; again?: boolean } | null>(null);
  const run = (restoreChanged: boolean) => {
    menu.close(true);
    setMessage(null);
    revert(change.path, restoreChanged).then((out) => {
      const why = out.skipped?.[change.path];
      if (why) setMessage({ text: `${change.path} was not reverted: ${why}`, again: why.startsWith("changed since") });
      else if (!out.restored?.length) setMessage({ text: `${change.path}: nothing to revert` });
    }, (e) => setMessage({ text: `Could not revert ${change.path}: ${String(e)}` }));
  };
  return (
    <span className="badge-menu">
      <button type="button" className={`badge badge-${change.badge} origin-${change.origin}`} {...menu.buttonProps}
        aria-label={`${change.badge}: ${describeChange(change)}. Actions for ${change.path}`} title={describeChange(change)}>
        {change.badge}
      </button>
      {menu.open && (
        <div {...menu.menuProps} className="badge-menu-list" aria-label={`Actions for ${change.path}`}>
          <button type="button" role="menuitem" onClick={() => run(false)}>Revert to before this session</button>
        </div>
      )}
      {message && (
        <span className="badge-menu-message" role="alert">
          {message.text}
          {message.again && <button type="button" className="link-button" onClick={() => run(true)}>Revert anyway</button>}
        </span>
      )}
    </span>
  );
}
