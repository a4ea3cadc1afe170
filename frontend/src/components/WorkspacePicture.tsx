import { useEffect, useState } from "react";

/** Whether a workspace path names a picture the app shows as one (PNG, JPEG, WEBP, GIF). */
export const isImagePath = (p: string) => /\.(png|jpe?g|webp|gif)$/i.test(p);

/** A workspace image shown as a picture, read again when version changes; load gives its data URL. */
export function WorkspacePicture({ load, path, version }: { load: (path: string) => Promise<string>; path: string; version?: unknown }) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    load(path).then(
      (u) => live && setUrl(u),
      (e) => live && setError(String(e instanceof Error ? e.message : e)),
    );
    return () => void (live = false);
  }, [load, path, version]);
  if (error) return <p className="empty">{error}</p>;
  return url ? <img className="viewer-image" src={url} alt={path} /> : null;
}
