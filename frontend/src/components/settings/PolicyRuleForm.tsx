import { useState } from "react";
import type { WrittenRule } from "../../bridge/policy";

const lines = (s: string) => s.split("\n").map((l) => l.trim()).filter(Boolean);

/** What a rule with paths is about: reading, changing, or both (the file's access). */
type Access = "any" | "read" | "write";

/**
 * What is wrong with rule before it is sent ("" when nothing the form can
 * see): the backend checks the rest with the whole file.
 */
export function ruleProblem(rule: WrittenRule, anyTool: boolean): string {
  if (anyTool) {
    if ((rule.paths ?? []).length === 0) return "Any tool needs at least one path (one a line, like .env or keys/**).";
    if (rule.decision === "allow") return "Paths for any tool are for deny and ask rules: an allow rule names its tool and its files exactly.";
    return "";
  }
  if (rule.tool === "") return "Name a tool (bash, read_file, mcp__server__tool, …), or choose Any tool and give paths.";
  if (rule.tool === "*") return "For every tool, choose Any tool and give paths.";
  return "";
}

/**
 * The Policy page's rule form: the fields of a [[rule]] as written in the
 * file, one command, path or example a line. "Any tool" makes it a path
 * rule (paths, access read, write or both) that holds on every route.
 * Save checks what the form can see, then hands the rule to the backend,
 * which checks the whole file before writing it; a refusal is shown here
 * and the draft stays as typed.
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
  const [anyTool, setAnyTool] = useState((start.paths ?? []).length > 0);
  const [tool, setTool] = useState(start.tool);
  const [paths, setPaths] = useState((start.paths ?? []).join("\n"));
  const [access, setAccess] = useState<Access>((start.access as Access) || "any");
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
    const common = { decision, reason: reason.trim(), match: lines(match), notMatch: lines(notMatch) };
    const rule: WrittenRule = anyTool
      ? { ...common, tool: "", paths: lines(paths), access }
      : { ...common, tool: tool.trim(), commands: lines(commands), files: lines(files), action: start.action, cwd: cwd.trim(), domain: domain.trim() };
    const problem = ruleProblem(rule, anyTool);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError("");
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
      <label><input type="checkbox" checked={anyTool} onChange={(e) => setAnyTool(e.target.checked)} /> Any tool: paths, on every route (file tools, search, commands)</label>
      {anyTool ? (
        <>
          <label>Paths, one a line, relative to the workspace root (<code>**</code> any folders)
            <textarea rows={2} value={paths} onChange={(e) => setPaths(e.target.value)} placeholder={".env\nkeys/**"} />
          </label>
          <label>Access{" "}
            <select value={access} onChange={(e) => setAccess(e.target.value as Access)}>
              <option value="any">read and write</option>
              <option value="read">read</option>
              <option value="write">write</option>
            </select>
          </label>
        </>
      ) : (
        <>
          <label>Tool <input type="text" value={tool} onChange={(e) => setTool(e.target.value)} placeholder="bash" /></label>
          <label>Commands, one a line (<code>*</code> inside a word; <code>**</code> last, for ask and deny)
            <textarea rows={2} value={commands} onChange={(e) => setCommands(e.target.value)} placeholder="npm run test:*" />
          </label>
          <label>Files, one a line (<code>**</code> any folders; on a reading tool, a read rule of them for every tool)
            <textarea rows={1} value={files} onChange={(e) => setFiles(e.target.value)} placeholder="src/**/*.ts" />
          </label>
          <label>Folder, relative to the workspace root <input type="text" value={cwd} onChange={(e) => setCwd(e.target.value)} placeholder="(the root)" /></label>
          <label>Domain (web_fetch: exactly this host; <code>*.example.com</code> the names below it only)
            <input type="text" value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="example.com" />
          </label>
        </>
      )}
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
