import { useCallback, useEffect, useRef, useState } from "react";
import type { ChangedFile, DirEntry, FilesBackend } from "../bridge/files";
import { FileTreeNodes } from "./FileTreeNodes";
import { FileViewer } from "./FileViewer";
import { Badge, BadgeMenu, describeChange } from "./FileTreeBadge";
import type { UndoAppliedPayload } from "../bridge";
import "../files.css";

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * The workspace tree of the left panel: folders load as they are opened and
 * reload when fs.changed names something in them; files changed in this
 * session carry A / M / D badges; clicking a file opens the viewer.
 */
export function FileTree({ files, revert }: {
  files: FilesBackend;
  /** Reverts a changed file (the badge menu of the changed list); absent: the badges are plain. */
  revert?: (path: string, restoreChanged: boolean) => Promise<UndoAppliedPayload>;
}) {
  const [listings, setListings] = useState<Record<string, DirEntry[]>>({});
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set([""]));
  const [changed, setChanged] = useState<Map<string, ChangedFile>>(() => new Map());
  const [degraded, setDegraded] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [openVersion, setOpenVersion] = useState(0);
  const loaded = useRef<Set<string>>(new Set());
  const openRef = useRef<string | null>(null);
  openRef.current = open;

  const load = useCallback(
    (dir: string) =>
      files.listDir(dir).then(
        (ents) => {
          loaded.current.add(dir);
          setListings((prev) => ({ ...prev, [dir]: ents }));
          if (dir === "") setError(null);
        },
        (e) => {
          loaded.current.delete(dir);
          setListings((prev) => {
            const next = { ...prev };
            delete next[dir];
            return next;
          });
          if (dir === "") setError(String(e));
        },
      ),
    [files],
  );

  const refreshChanged = useCallback(
    () => files.changedFiles().then((list) => setChanged(new Map(list.map((c) => [c.path, c]))), () => {}),
    [files],
  );

  useEffect(() => {
    void load("");
    void refreshChanged();
    files.watchState().then((s) => setDegraded(s.degraded ? (s.reason ?? "Live updates are limited.") : null), () => {});
    const offChanged = files.onFsChanged((p) => {
      const paths = p.paths ?? [];
      const dirs = new Set<string>();
      for (const path of paths) {
        dirs.add(parentOf(path));
        dirs.add(path); // a folder that went, or was replaced
      }
      for (const dir of [...loaded.current]) {
        if (p.truncated || dirs.has(dir)) void load(dir);
      }
      const cur = openRef.current;
      if (cur && (p.truncated || paths.includes(cur))) setOpenVersion((v) => v + 1);
      void refreshChanged();
    });
    const offDegraded = files.onWatchDegraded((reason) => setDegraded(reason));
    return () => {
      offChanged();
      offDegraded();
    };
  }, [files, load, refreshChanged]);

  const toggle = (dir: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(dir)) next.delete(dir);
      else {
        next.add(dir);
        void load(dir);
      }
      return next;
    });
  };

  const changes = [...changed.values()];
  return (
    <div className="filetree">
      {degraded && (
        <p className="watch-degraded" role="status">
          <span aria-hidden="true">⚠ </span>
          {degraded}
        </p>
      )}
      {changes.length > 0 && (
        <details className="changes" open>
          <summary>Changed in this session ({changes.length})</summary>
          <ul aria-label="Changed files">
            {changes.map((c) => (
              <li key={c.path} className={revert ? "changed-row" : undefined}>
                <button className="tree-file" onClick={() => setOpen(c.path)} title={`${c.path}: ${describeChange(c)}`}>
                  <span className="tree-name">{c.path}</span>
                  {!revert && <Badge change={c} />}
                </button>
                {revert && <BadgeMenu change={c} revert={revert} />}
              </li>
            ))}
          </ul>
        </details>
      )}
      {error && (
        <p className="tree-error" role="alert">
          {error}
        </p>
      )}
      {listings[""] && listings[""].length === 0 && <p className="empty">This folder is empty.</p>}
      {listings[""] && (
        <FileTreeNodes
          dir=""
          depth={0}
          listings={listings}
          expanded={expanded}
          changed={changed}
          selected={open}
          onToggle={toggle}
          onOpen={setOpen}
        />
      )}
      {open && (
        <FileViewer
          key={open}
          files={files}
          path={open}
          change={changed.get(open)}
          version={openVersion}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}
