// Pictures in the conversation: what the composer and the transcript need of
// the backend, and the composer's attachment list.
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import type { AttachResult, DroppedFile, GatehouseEvent, ImageRef } from "../bridge";

export interface ImagesApi {
  attachImage(name: string, data64: string): Promise<AttachResult>;
  markModelVision(model: string, sees: boolean): Promise<void>;
  imageData(id: string): Promise<string>;
  /** The backend's events: files dropped on the window from another application arrive attached (images.dropped). */
  onEvent?(handler: (e: GatehouseEvent) => void): () => void;
}

export const ImagesContext = createContext<ImagesApi | null>(null);

/** The image types the composer takes; the backend checks the bytes again. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
/** The largest image the backend takes, before scaling. */
export const MAX_IMAGE_BYTES = 20 << 20;

/** One attachment of the composer: being read, accepted, or refused with its reason. */
export interface Attachment {
  key: number;
  name: string;
  size: number;
  state: "reading" | "ready" | "refused" | "error";
  image?: ImageRef;
  /** A preview of the local file while it is read, then the saved image. */
  preview?: string;
  reason?: string;
  /** The model in effect, when the user may say that it sees. */
  markModel?: string;
  file: File;
}

export function bytesLabel(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  if (n >= 1 << 10) return `${Math.round(n / (1 << 10))} KB`;
  return `${n} bytes`;
}

function base64Of(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Says why a file is refused before it is sent, or undefined. The backend decides by the bytes. */
export function precheck(f: File): string | undefined {
  const name = f.name || "The pasted image";
  if (f.size > MAX_IMAGE_BYTES) return `${name} is ${bytesLabel(f.size)}; images are limited to 20 MB.`;
  if (f.type && !IMAGE_TYPES.includes(f.type)) return `${name} is not a PNG, JPEG, WEBP or GIF image (it is ${f.type}).`;
  return undefined;
}

/** The composer's attachments: add files (paste, drop, the attach button), remove, clear. */
export function useAttachments() {
  const api = useContext(ImagesContext);
  const [list, setList] = useState<Attachment[]>([]);
  const next = useRef(1);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);
  const update = (key: number, change: Partial<Attachment>) =>
    alive.current && setList((l) => l.map((a) => (a.key === key ? { ...a, ...change } : a)));

  const add = useCallback(
    (files: readonly File[], pasted = false) => {
      for (const f of files) {
        const key = next.current++;
        // A pasted screenshot has a made-up name ("image.png"); it is shown as pasted.
        const name = pasted ? "" : f.name;
        const a: Attachment = { key, name, size: f.size, state: "reading", file: f };
        const bad = precheck(f);
        if (bad || !api) {
          setList((l) => [...l, { ...a, state: "error", reason: bad ?? "This window cannot attach images." }]);
          continue;
        }
        setList((l) => [...l, a]);
        f.arrayBuffer()
          .then((buf) => api.attachImage(name, base64Of(buf)))
          .then(
            (r) => {
              if (r.refused) update(key, { state: "refused", reason: r.refused, markModel: r.canMark ? r.model : undefined });
              else if (r.image) {
                update(key, { state: "ready", image: r.image });
                api.imageData(r.image.id).then((u) => update(key, { preview: u }), () => {});
              }
            },
            (e) => update(key, { state: "error", reason: String(e instanceof Error ? e.message : e) }),
          );
      }
    },
    [api],
  );
  // Files dropped from another application: the window's own drop handler attached them (WebKitGTK gives the page
  // only their URIs), each shown as the composer's own attachments are.
  useEffect(() => {
    if (!api?.onEvent) return;
    return api.onEvent((e) => {
      if (e.type !== "images.dropped") return;
      for (const d of (e.payload.files ?? []) as DroppedFile[]) {
        const key = next.current++;
        const a: Attachment = { key, name: d.name, size: d.size, state: "ready", file: new File([], d.name), image: d.image ?? undefined };
        if (d.error) Object.assign(a, { state: "error", reason: d.error });
        else if (d.refused) Object.assign(a, { state: "refused", reason: d.refused, markModel: d.canMark ? d.model : undefined });
        setList((l) => [...l, a]);
        if (a.image) api.imageData(a.image.id).then((u) => update(key, { preview: u }), () => {});
      }
    });
  }, [api]); // eslint-disable-line react-hooks/exhaustive-deps
  /** Shows a paste that could not be read, in place. */
  const fail = useCallback((reason: string) => {
    const key = next.current++;
    setList((l) => [...l, { key, name: "", size: 0, state: "error", reason, file: new File([], "") }]);
  }, []);
  const remove = useCallback((key: number) => setList((l) => l.filter((a) => a.key !== key)), []);
  const clear = useCallback(() => setList([]), []);
  /** Puts back what a failed send took. */
  const restore = useCallback((kept: readonly Attachment[]) => setList((l) => (l.length === 0 ? [...kept] : l)), []);
  /** Says the model sees, then tries the refused attachments again. */
  const markSees = useCallback(
    async (model: string) => {
      if (!api) return;
      await api.markModelVision(model, true);
      const retry = list.filter((a) => a.state === "refused");
      setList((l) => l.filter((a) => a.state !== "refused"));
      for (const a of retry) add([a.file], a.name === "");
    },
    [api, add, list],
  );
  return { list, add, remove, clear, restore, fail, markSees, api };
}

/** The image files of a paste or a drop. */
export function imageFiles(items: DataTransfer | null): File[] {
  if (!items) return [];
  const out: File[] = [];
  if (items.files && items.files.length > 0) {
    for (const f of Array.from(items.files)) out.push(f);
    return out;
  }
  for (const it of Array.from(items.items ?? [])) {
    if (it.kind === "file") {
      const f = it.getAsFile();
      if (f) out.push(f);
    }
  }
  return out;
}

/**
 * The clipboard's image through the async Clipboard API, for a paste event that carried no file (WebKitGTK's
 * carries neither the image nor its type). Undefined when the clipboard holds no image.
 */
export async function pastedImage(types: readonly string[]): Promise<File | undefined> {
  if (!navigator.clipboard?.read) throw new Error(`The clipboard holds ${types.join(", ")}, which this window cannot read.`);
  for (const item of await navigator.clipboard.read()) {
    const type = item.types.find((t) => t.startsWith("image/"));
    if (type) return new File([await item.getType(type)], "image.png", { type });
  }
  return undefined;
}
