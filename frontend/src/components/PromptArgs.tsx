import { useEffect, useRef, useState } from "react";
import type { SlashCommand } from "../bridge";

/** A value as the backend reads it back after "key=": bare when it can be, else in double quotes (\" and \\ inside). */
export function quoteArg(value: string): string {
  if (value !== "" && !/[\s"\\]/.test(value)) return value;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The words typed after a prompt's name for the values given (empty optional ones left out). */
export function promptArgs(values: Readonly<Record<string, string>>, order: readonly string[]): string {
  return order
    .filter((k) => (values[k] ?? "") !== "")
    .map((k) => `${k}=${quoteArg(values[k])}`)
    .join(" ");
}

/**
 * The small form an MCP prompt's arguments are asked in, above the composer: one field per argument, the required ones
 * marked and checked before sending; Send runs "/server:prompt key=value …" through the one submit, Cancel (Esc) drops it.
 */
export function PromptArgsForm({ command, onSend, onCancel }: {
  command: SlashCommand;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const args = command.arguments ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = () => {
    const lack = args.filter((a) => a.required && (values[a.name] ?? "").trim() === "").map((a) => a.name);
    setMissing(lack);
    if (lack.length > 0) {
      document.getElementById(`prompt-arg-${lack[0]}`)?.focus();
      return;
    }
    const words = promptArgs(values, args.map((a) => a.name));
    onSend(`/${command.name}${words ? " " + words : ""}`);
  };
  return (
    <form className="prompt-args" role="dialog" aria-label={`Arguments of /${command.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onCancel();
        }
      }}>
      <div className="prompt-args-title">
        <strong>/{command.name}</strong> <span className="slash-desc">{command.description}</span>
        <span className="slash-source"> · {command.source}</span>
      </div>
      {args.map((a, i) => (
        <div key={a.name} className="prompt-arg">
          <label htmlFor={`prompt-arg-${a.name}`}>
            {a.title || a.name}
            {a.required ? " (required)" : ""}
          </label>
          <input id={`prompt-arg-${a.name}`} ref={i === 0 ? first : undefined} value={values[a.name] ?? ""}
            aria-required={a.required ? true : undefined} aria-invalid={missing.includes(a.name) ? true : undefined}
            aria-describedby={a.description ? `prompt-arg-${a.name}-desc` : undefined}
            onChange={(e) => setValues((v) => ({ ...v, [a.name]: e.currentTarget.value }))} />
          {a.description && <small id={`prompt-arg-${a.name}-desc`}>{a.description}</small>}
        </div>
      ))}
      {missing.length > 0 && (
        <div className="composer-error" role="alert">
          Fill in {missing.join(", ")}: the prompt needs {missing.length === 1 ? "it" : "them"}.
        </div>
      )}
      <div className="prompt-args-buttons">
        <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
        <button type="submit" className="primary">Send</button>
      </div>
    </form>
  );
}
