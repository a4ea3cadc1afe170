import type { ChangedFile } from "../bridge/files";

const originWords: Record<string, string> = {
  agent: "by the agent's file tools",
  shell: "by a command the agent ran",
  outside: "outside Gatehouse",
};
const statusWords: Record<string, string> = { added: "added", modified: "modified", deleted: "deleted" };

/** Words for a change, for aria-labels and tooltips: "modified by the agent's file tools". */
export function describeChange(c: ChangedFile): string {
  const who = (c.origins.length ? c.origins : [c.origin]).map((o) => originWords[o] ?? o).join(", then ");
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
