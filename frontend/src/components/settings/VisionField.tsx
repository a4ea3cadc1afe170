import { useEffect, useId, useState } from "react";
import type { ModelVision } from "../../bridge";
import type { VisionBackend } from "./sections";

const how: Record<ModelVision["source"], string> = {
  server: "as the model server's list of models says",
  known_model: "from Gatehouse's table of well-known models",
  setting: "as you said",
  unknown: "",
};

/**
 * Whether the model in effect sees images, and how that is known. Only when nothing but the user
 * can say (the server and the table are silent) may it be changed here; the change applies at once.
 */
export function VisionField({ backend, model }: { backend: VisionBackend; model: string }) {
  const [v, setV] = useState<ModelVision | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  useEffect(() => {
    let live = true;
    backend.modelVision().then((r) => live && setV(r), (e) => live && setError(String(e)));
    return () => void (live = false);
  }, [backend, model]);
  if (!v) return error ? <p className="field-note" role="alert">{error}</p> : null;
  const editable = v.source === "unknown" || v.source === "setting";
  const mark = (sees: boolean) =>
    backend.markModelVision(v.model, sees).then(() => setV({ ...v, canSee: sees, source: "setting" }), (e) => setError(String(e)));
  return (
    <div className="settings-vision">
      {editable ? (
        <label>
          <input type="checkbox" checked={v.canSee} onChange={(e) => void mark(e.target.checked)} aria-describedby={`${id}-note`} />{" "}
          {v.model} can see images
        </label>
      ) : (
        <p>{v.model} {v.canSee ? "can see images" : "cannot see images"}, {how[v.source]}.</p>
      )}
      <p id={`${id}-note`} className="field-note">
        {editable
          ? "Neither the server nor Gatehouse's table says; a model that cannot see is sent no picture. Applies at once."
          : "Pictures you paste or drop are refused in the composer when it cannot."}
      </p>
      {error && <p className="field-note" role="alert">{error}</p>}
    </div>
  );
}
