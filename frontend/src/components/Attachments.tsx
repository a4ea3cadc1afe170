// The composer's attachment chips and the transcript's thumbnails.
import { useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ImageRef } from "../bridge";
import { bytesLabel, ImagesContext, type Attachment } from "./images";

/** "1200×800, scaled from 4000×2667 · 2.1 MB" */
export function sizeLabel(im: ImageRef): string {
  const scaled = im.width !== im.origWidth || im.height !== im.origHeight;
  return `${im.width}×${im.height}${scaled ? `, scaled from ${im.origWidth}×${im.origHeight}` : ""} · ${bytesLabel(im.origBytes)}`;
}

const label = (name: string) => name || "pasted image";

/** The attachments above the composer: thumbnails with their size, each removable; a refused one says why. */
export function AttachmentChips(props: {
  list: readonly Attachment[];
  onRemove: (key: number) => void;
  onMarkSees: (model: string) => void;
}) {
  if (props.list.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {props.list.map((a) => (
        <li key={a.key} className={`attachment attachment-${a.state}`} aria-label={`Attachment ${label(a.name)}`}>
          {a.state === "ready" && a.image && (
            <>
              {a.preview ? <img className="attachment-thumb" src={a.preview} alt={`Thumbnail of ${label(a.name)}`} /> : <span className="attachment-thumb" />}
              <span className="attachment-text">
                <span className="attachment-name">{label(a.name)}</span>
                <span className="attachment-size">{sizeLabel(a.image)}</span>
              </span>
            </>
          )}
          {a.state === "reading" && <span className="attachment-text">Reading {label(a.name)}…</span>}
          {(a.state === "refused" || a.state === "error") && (
            <span className="attachment-text" role="alert">
              <span className="attachment-name">{label(a.name)} not attached</span>
              <span className="attachment-reason">{a.reason}</span>
              {a.markModel && (
                <button type="button" className="link" onClick={() => props.onMarkSees(a.markModel!)}>
                  {a.markModel} can see images
                </button>
              )}
            </span>
          )}
          <button type="button" className="attachment-remove" aria-label={`Remove ${label(a.name)}`} title="Remove" onClick={() => props.onRemove(a.key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A saved image's data URL, read once per id. */
const cache = new Map<string, Promise<string>>();
function useImageData(id: string): string | undefined {
  const api = useContext(ImagesContext);
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!api) return;
    let live = true;
    let p = cache.get(id);
    if (!p) {
      p = api.imageData(id);
      cache.set(id, p);
      p.catch(() => cache.delete(id));
    }
    p.then((u) => live && setUrl(u), () => {});
    return () => void (live = false);
  }, [api, id]);
  return url;
}

function Thumb({ im, onOpen }: { im: ImageRef; onOpen: () => void }) {
  const url = useImageData(im.id);
  const name = label(im.name ?? "");
  return (
    <button type="button" className="image-thumb" onClick={onOpen} title={`${name}, ${sizeLabel(im)}: open full size`} aria-label={`Open ${name} full size`}>
      {url ? <img src={url} alt={`Thumbnail of ${name}`} /> : <span className="image-missing">{name}</span>}
    </button>
  );
}

/** Full size, in a modal: Esc or the button closes it. */
function ImageViewer({ im, onClose }: { im: ImageRef; onClose: () => void }) {
  const url = useImageData(im.id);
  const close = useRef<HTMLButtonElement>(null);
  // Focus moves in before paint, and Esc closes from anywhere while the
  // viewer is open (in the capture phase, before the chat's own Esc), as
  // the app's other modals do: a focus taken back by the page behind must
  // not leave the viewer open.
  useLayoutEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [onClose]);
  const name = label(im.name ?? "");
  return (
    <div className="image-viewer-backdrop" onClick={onClose}>
      <div role="dialog" aria-modal="true" aria-label={`Image ${name}`} className="image-viewer" onClick={(e) => e.stopPropagation()}>
        <div className="image-viewer-bar">
          <span>{name} · {sizeLabel(im)}</span>
          <button ref={close} type="button" onClick={onClose}>Close</button>
        </div>
        {url && <img src={url} alt={name} />}
      </div>
    </div>
  );
}

/** The images of a transcript item, as thumbnails that open full size. */
export function ImageThumbs({ images }: { images?: readonly ImageRef[] }) {
  const [open, setOpen] = useState<ImageRef | null>(null);
  if (!images || images.length === 0) return null;
  return (
    <div className="image-thumbs" aria-label="Images">
      {images.map((im, i) => (
        <Thumb key={`${im.id}-${i}`} im={im} onOpen={() => setOpen(im)} />
      ))}
      {open && <ImageViewer im={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
