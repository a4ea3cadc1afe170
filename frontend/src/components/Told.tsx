import type { Activation, InstructionFile, LoadTold, ToldView } from "../bridge/told";
import { InfoDialog, useLoaded } from "./InfoDialog";
import "./Told.css";

/** A size as a person reads it. */
export function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Where a file was told and why, in words. */
function why(f: InstructionFile): string {
  const imported = f.importedBy ? `imported by @${f.path} in ${f.importedBy}; ` : "";
  if (f.scope === "user") return `${imported}your own instructions, for every workspace: in the system prompt`;
  if (f.scope === "workspace") return `${imported}the workspace root's: in the system prompt`;
  const when = f.because ? `told when the model first worked on ${f.because}` : "told when the model first worked on a file there";
  return `${imported}for the folder ${f.scope}/: ${when}`;
}

function FileEntry({ f }: { f: InstructionFile }) {
  return (
    <li>
      <span className="mono">{f.path}</span>
      {!f.skipped && <span className="told-flag">{size(f.bytes)}</span>}
      {f.truncated && <span className="told-flag told-flag-warn">capped: only the first 32 KiB were read</span>}
      <div className="told-why">{why(f)}</div>
      {f.skipped && <div className="told-refused">{f.importedBy ? "not imported" : "not read"}: {f.skipped}</div>}
    </li>
  );
}

function LoadedSkill({ a }: { a: Activation }) {
  return (
    <li>
      <details>
        <summary>
          skill <span className="mono">{a.skill}</span> <span className="told-why">from {a.folder}</span>
        </summary>
        {a.allowedTools && <div className="told-why">allowed-tools (shown only, it grants nothing): {a.allowedTools}</div>}
        <pre className="told-text">{a.instructions || "(no instructions)"}</pre>
      </details>
    </li>
  );
}

function Body({ view }: { view: ToldView }) {
  if (!view.session) {
    return <p className="about-muted">No session is open yet: send a message and the model is told its instructions and skills.</p>;
  }
  const files = view.instructions ?? [];
  const offered = view.offered ?? [];
  const excess = view.excess ?? [];
  const loaded = view.loaded ?? [];
  return (
    <>
      <section aria-label="Instruction files">
        <h2>
          Instruction files <span className="about-count">({files.length})</span>
        </h2>
        {files.length === 0 ? (
          <p className="about-muted">
            No AGENTS.md or CLAUDE.md was read. Write one at the workspace root, or ~/.config/gatehouse/AGENTS.md for every workspace.
          </p>
        ) : (
          <ul className="told-list">
            {files.map((f, i) => (
              <FileEntry key={`${i}-${f.path}`} f={f} />
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Skills catalog">
        <h2>
          Skills catalog <span className="about-count">({offered.length} offered)</span>
        </h2>
        {offered.length === 0 ? (
          <p className="about-muted">No skill is offered, so the model has no skill tool. Settings → Skills lists what was found and why.</p>
        ) : (
          <>
            {excess.length > 0 && (
              <p className="told-refused">
                {excess.length} past the catalog's bound of {size(view.bound)}, named without their descriptions: {excess.join(", ")}
              </p>
            )}
            <pre className="told-text" aria-label="The catalog as sent">
              {view.catalog}
            </pre>
          </>
        )}
      </section>
      <section aria-label="Loaded skills">
        <h2>
          Loaded skills <span className="about-count">({loaded.length})</span>
        </h2>
        {loaded.length === 0 ? (
          <p className="about-muted">No skill is loaded yet: the model loads one with its skill tool, or you with /name.</p>
        ) : (
          <ul className="told-list">
            {loaded.map((a) => (
              <LoadedSkill key={a.skill} a={a} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** "What the model was told": the instruction files read, the skills catalog as sent and the loaded skills. */
export function Told(props: { load: LoadTold; onClose: () => void }) {
  const told = useLoaded(props.load);
  return (
    <InfoDialog title="What the model was told" onClose={props.onClose}>
      <p className="about-intro">The files Gatehouse read into this session's instructions, and the skills it offered and loaded.</p>
      {told.state === "loading" && <p role="status">Loading…</p>}
      {told.state === "failed" && (
        <p className="about-error" role="alert">
          Could not ask the app what the model was told: {told.error}
        </p>
      )}
      {told.state === "done" && <Body view={told.value} />}
    </InfoDialog>
  );
}
