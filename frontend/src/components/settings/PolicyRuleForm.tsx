import { useState } from "react";
import type { WrittenRule } from "../../bridge/policy";

const lines = (s: string) => s.split("\n").map((l) => l.trim()).filter(Boolean);

/**
 * The Policy page's rule form: the fields of a [[rule]] as written in the
 * file, one command, path or example a line. Save hands the rule to the
 * backend, which checks the whole file before writing it; a refusal is
 * shown here and the draft stays as typed.
 */
export function PolicyRuleForm({ label, start, scoped, onSave, onCancel }: {
  label: string;
  start: WrittenRule;
  /** Offer where to save (a new rule); an edited rule stays in its file. */
  scoped?: boolean;
  onSave: (rule: WrittenRule, scope: "workspace" | "everywhere") => Promise<unknown>;
  onCancel: () => void;
}) {
  const [decision, setDecision] = useState(start.decision);
  const [tool, setTool] = useState(start.tool);
  const [commands, setCommands] = useState((start.commands ?? []).join("\n"));
  const [files, setFiles] = useState((start.files ?? []).join("\n"));
  const [cwd, setCwd] = useState(start.cwd ?? "");
  const [domain, setDomain] = useState(start.domain ?? "");
  const [reason, setReason] = useState(start.reason ?? "");
  const [match, setMatch] = useState((start.match ?? []).join("\n"));
  const [notMatch, setNotMatch] = useState((start.notMatch ?? []).join("\n"));
  const [scope, setScope] = useState<"workspace" | "everywhere">("workspace");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const save = () => {
    setBusy(true);
    setError("");
    const rule: WrittenRule = { decision, tool: tool.trim(), commands: lines(commands), files: lines(files), action: start.action, cwd: cwd.trim(),
      domain: domain.trim(), reason: reason.trim(), match: lines(match), notMatch: lines(notMatch) };
    onSave(rule, scope).then(() => setBusy(false), (e) => { setBusy(false); setError(String(e)); });
  };

  return (
    <form className="policy-rule-form" aria-label={label} onSubmit={(e) => { e.preventDefault(); save(); }}>
      <label>Decision{" "}
        <select value={decision} onChange={(e) => setDecision(e.target.value as WrittenRule["decision"])}>
          <option value="allow">allow</option>
          <option value="ask">ask</option>
          <option value="deny">deny</option>
        </select>
      </label>
      <label>Tool <input type="text" value={tool} onChange={(e) => setTool(e.target.value)} placeholder="bash" /></label>
      <label>Commands, one a line (<code>*</code> inside a word; <code>**</code> last, for ask and deny)
        <textarea rows={2} value={commands} onChange={(e) => setCommands(e.target.value)} placeholder="npm run test:*" />
      </label>
      <label>Files, one a line (<code>**</code> any folders)
        <textarea rows={1} value={files} onChange={(e) => setFiles(e.target.value)} placeholder="src/**/*.ts" />
      </label>
      <label>Folder, relative to the workspace root <input type="text" value={cwd} onChange={(e) => setCwd(e.target.value)} placeholder="(the root)" /></label>
      <label>Domain (web_fetch: exactly this host; <code>*.example.com</code> the names below it only)
        <input type="text" value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="example.com" />
      </label>
      <label>Reason <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} /></label>
      <label>Must match, one a line (a command line, a path, or a URL for a domain) <textarea rows={1} value={match} onChange={(e) => setMatch(e.target.value)} /></label>
      <label>Must not match, one a line <textarea rows={1} value={notMatch} onChange={(e) => setNotMatch(e.target.value)} /></label>
      {scoped && (
        <fieldset>
          <legend>Save for</legend>
          <label><input type="radio" name="policy-scope" checked={scope === "workspace"} onChange={() => setScope("workspace")} /> this workspace</label>
          <label><input type="radio" name="policy-scope" checked={scope === "everywhere"} onChange={() => setScope("everywhere")} /> everywhere</label>
        </fieldset>
      )}
      {error && <p className="settings-error" role="alert">Not saved: {error}</p>}
      <button type="submit" className="primary" disabled={busy}>Save rule</button>{" "}
      <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
    </form>
  );
}
