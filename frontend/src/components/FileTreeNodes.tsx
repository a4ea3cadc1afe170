import type { ChangedFile, DirEntry } from "../bridge/files";
import { Badge } from "./FileTreeBadge";

interface Props {
  dir: string;
  depth: number;
  listings: Record<string, DirEntry[]>;
  expanded: Set<string>;
  changed: Map<string, ChangedFile>;
  selected: string | null;
  onToggle: (dir: string) => void;
  onOpen: (path: string) => void;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The entries of one folder, with deleted files of this session shown struck through. */
function entriesOf(dir: string, listing: DirEntry[], changed: Map<string, ChangedFile>): Array<DirEntry & { deleted?: boolean }> {
  const present = new Set(listing.map((e) => e.path));
  const gone = [...changed.values()]
    .filter((c) => c.status === "deleted" && parentOf(c.path) === dir && !present.has(c.path))
    .map((c) => ({ name: c.path.split("/").pop() ?? c.path, path: c.path, isDir: false, size: 0, ignored: false, deleted: true }));
  if (gone.length === 0) return listing;
  const files = [...listing.filter((e) => !e.isDir), ...gone].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
  return [...listing.filter((e) => e.isDir), ...files];
}

function holdsChanges(dir: string, changed: Map<string, ChangedFile>): boolean {
  const prefix = dir + "/";
  for (const p of changed.keys()) if (p.startsWith(prefix)) return true;
  return false;
}

/** One level of the tree (a `tree` at the top, a `group` below). */
export function FileTreeNodes(props: Props) {
  const { dir, depth, listings, expanded, changed, selected, onToggle, onOpen } = props;
  const listing = listings[dir];
  if (!listing) return null;
  const entries = entriesOf(dir, listing, changed);
  return (
    <ul role={depth === 0 ? "tree" : "group"} aria-label={depth === 0 ? "Workspace files" : undefined} className="tree">
      {entries.map((e) => {
        const indent = { paddingLeft: `${depth * 14 + 4}px` };
        if (e.isDir) {
          const isOpen = expanded.has(e.path);
          return (
            <li key={e.path} role="treeitem" aria-expanded={isOpen} aria-selected={false} className={e.ignored ? "ignored" : undefined}>
              <button className="tree-dir" style={indent} onClick={() => onToggle(e.path)} title={e.ignored ? `${e.path} (ignored, not watched)` : e.path}>
                <span className="tree-caret" aria-hidden="true">
                  {isOpen ? "▾" : "▸"}
                </span>
                <span className="tree-name">{e.name}</span>
                {holdsChanges(e.path, changed) && (
                  <span className="tree-dot" aria-label="holds changed files" title="holds changed files">
                    •
                  </span>
                )}
              </button>
              {isOpen && <FileTreeNodes {...props} dir={e.path} depth={depth + 1} />}
            </li>
          );
        }
        const c = changed.get(e.path);
        const deleted = "deleted" in e && e.deleted;
        return (
          <li key={e.path} role="treeitem" aria-selected={selected === e.path} className={[e.ignored ? "ignored" : "", deleted ? "deleted" : ""].join(" ").trim() || undefined}>
            <button className="tree-file" style={indent} onClick={() => onOpen(e.path)} title={e.path}>
              <span className="tree-name">{e.name}</span>
              {c && <Badge change={c} />}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
