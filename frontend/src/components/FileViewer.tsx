import { useEffect, useRef, useState } from "react";
import type { ChangedFile, FileDiffView, FileView, FilesBackend } from "../bridge/files";
import { highlight, languageFor, useRich } from "../rich";
import { describeChange } from "./FileTreeBadge";
import { DiffView } from "./DiffView";
import { isImagePath, WorkspacePicture } from "./WorkspacePicture";

interface Props {
  files: FilesBackend;
  path: string;
  /** Set when the file changed in this session: the viewer then offers its diff. */
  change?: ChangedFile;
  /** Bumped when the file changed on disk: the viewer reloads. */
  version: number;
  onClose: () => void;
  /** A line to show (from 1): the viewer opens on the file scrolled to it, the line marked. */
  line?: number;
}

type Tab = "changes" | "file";

/** A read-only view of one workspace file: highlighted content and, for changed files, the diff against the content before the session. */
export function FileViewer({ files, path, change, version, onClose, line }: Props) {
  const [tab, setTab] = useState<Tab>(change && !line ? "changes" : "file");
  const [view, setView] = useState<FileView | null>(null);
  const [diff, setDiff] = useState<FileDiffView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const changeKey = change ? `${change.status}:${(change.origins ?? []).join(",")}` : "";

  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  useEffect(() => {
    let live = true;
    setError(null);
    if (change?.status === "deleted") setView(null);
    else
      files.readFile(path).then(
        (v) => live && setView(v),
        (e) => live && setError(String(e)),
      );
    if (change)
      files.fileDiff(path).then(
        (d) => live && setDiff(d),
        (e) => live && setError(String(e)),
      );
    else setDiff(null);
    return () => {
      live = false;
    };
  }, [files, path, version, changeKey, change]);

  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      onClose();
    }
  };
  useRich(); // re-render with highlighting once the highlighter is in
  const lang = languageFor(path);
  const current = change ? tab : "file";
  // An image's changes are the picture as it is now: there is no text diff to show.
  const showsPicture = !!files.image && isImagePath(path) && change?.status !== "deleted";

  return (
    <section className="file-viewer" role="dialog" aria-label={`File ${path}`} onKeyDown={onKey}>
      <header className="viewer-head">
        <h2 className="viewer-path mono">{path}</h2>
        {change && <span className="viewer-change">{describeChange(change)}</span>}
        {line ? <span className="viewer-line">line {line}</span> : null}
        <span className="spacer" />
        <button ref={closeRef} className="viewer-close" onClick={onClose} aria-label="Close file viewer">
          Close
        </button>
      </header>
      {change && (
        <div role="tablist" aria-label="View" className="viewer-tabs">
          <button role="tab" aria-selected={current === "changes"} onClick={() => setTab("changes")}>
            Changes
          </button>
          <button role="tab" aria-selected={current === "file"} onClick={() => setTab("file")} disabled={change.status === "deleted"}>
            File
          </button>
        </div>
      )}
      <div className="viewer-body" role={change ? "tabpanel" : undefined}>
        {error && (
          <p className="tree-error" role="alert">
            {error}
          </p>
        )}
        {current === "changes" && showsPicture && <WorkspacePicture load={files.image!} path={path} version={version} />}
        {current === "changes" && !showsPicture && diff && (diff.diff ? <DiffView diff={diff.diff} label={path} language={lang} fill /> : <p className="empty">{diff.note ?? "No difference from the content before the session."}</p>)}
        {current === "file" && view && (view.binary && files.image && isImagePath(path) ? <WorkspacePicture load={files.image!} path={path} version={version} /> : <Code view={view} language={lang} line={line} />)}
      </div>
    </section>
  );
}


function Code({ view, language, line }: { view: FileView; language: string | undefined; line?: number }) {
  const mark = useRef<HTMLSpanElement>(null);
  // Scrolled to the line asked for, once its content is in.
  useEffect(() => mark.current?.scrollIntoView({ block: "center" }), [line, view]);
  if (view.binary) return <p className="empty">Binary file ({view.size.toLocaleString()} bytes): not shown.</p>;
  const lines = view.content.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const at = line && line <= lines.length ? line : 0;
  return (
    <>
      {view.truncated && <p className="empty">Showing the first {view.content.length.toLocaleString()} of {view.size.toLocaleString()} bytes.</p>}
      <div className="code" aria-label={`Content of ${view.path}`} role="region">
        <pre className="gutter" aria-hidden="true">
          {at ? (
            <>
              {lines.slice(0, at - 1).map((_, i) => `${i + 1}\n`).join("")}
              <span ref={mark} className="gutter-mark">{at}</span>
              {lines.slice(at).map((_, i) => `\n${at + i + 1}`).join("")}
            </>
          ) : lines.map((_, i) => i + 1).join("\n")}
        </pre>
        {at ? <div className="code-line-mark" style={{ top: `${(at - 1) * 1.5}em` }} aria-hidden="true" /> : null}
        <pre className="code-text">
          <code className="hljs" dangerouslySetInnerHTML={{ __html: highlight(view.content, language) }} />
        </pre>
      </div>
    </>
  );
}
