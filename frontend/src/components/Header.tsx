import type { ReactNode } from "react";
import type { AppState, ApprovalMode } from "../bridge";
import { AppMenu } from "./About";
import type { SectionId } from "./settings/sections";

const modes: { value: ApprovalMode; label: string; hint: string }[] = [
  { value: "plan", label: "plan", hint: "Only reading; the agent proposes a plan for you to approve" },
  { value: "manual", label: "manual", hint: "Every tool call asks first" },
  { value: "safe", label: "safe", hint: "Reading runs; changes and commands ask first" },
  { value: "auto", label: "auto", hint: "Nothing asks; the workspace boundary still holds" },
];

export function Header(props: {
  state: AppState;
  onChooseWorkspace: () => void;
  onModeChange: (m: ApprovalMode) => void;
  /** Opens Settings at a section (the model, the sandbox), or where it was. */
  onOpenSettings: (section?: SectionId) => void;
  /** The model menu; without one the model opens Settings. */
  model?: ReactNode;
  /** The sessions menu, beside the workspace. */
  sessions?: ReactNode;
  /** The context gauge, after the approval mode. */
  gauge?: ReactNode;
  /** Shown beside the mode: the session's approval rules. */
  rules?: ReactNode;
  /** The session's tokens and cost, after the gauge. */
  cost?: ReactNode;
  /** The button that opens the Changes view. */
  changes?: ReactNode;
}) {
  const { state } = props;
  const current = modes.find((m) => m.value === state.approvalMode);
  return (
    <header className="header">
      <button
        className="workspace"
        onClick={props.onChooseWorkspace}
        title={state.workspace || "Choose a workspace folder"}
        aria-label={state.workspace ? `Workspace ${state.workspaceName}, choose another folder` : "Choose a workspace folder"}
      >
        <span className="workspace-icon" aria-hidden>
          ▣
        </span>
        <span className="workspace-name">{state.workspaceName || "No folder"}</span>
        <span aria-hidden>▾</span>
      </button>
      {props.sessions}
      {props.changes}
      {state.model && props.model}
      {state.model && !props.model && (
        <button className="model" onClick={() => props.onOpenSettings("model")} title="Change the model in Settings" aria-label={`Model ${state.model}`}>
          <span className="model-label">model</span> <span className="mono">{state.model}</span>
        </button>
      )}
      <div className="spacer" />
      {state.unconfined && (
        <button className="badge badge-warn sandbox-badge" onClick={() => props.onOpenSettings("sandbox")} title={state.unconfined}
          aria-label={`Commands are not confined: ${state.unconfined}`}>
          {state.sandboxOff ? "Sandbox off" : "Not confined"}
        </button>
      )}
      <label className="mode" title={current?.hint}>
        <span className="mode-label">Approval</span>
        <select
          aria-label="Approval mode"
          value={state.approvalMode}
          onChange={(e) => props.onModeChange(e.target.value as ApprovalMode)}
          className={`mode-${state.approvalMode}`}
        >
          {modes.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      {state.approvalMode === "auto" && (
        <span className="auto-badge" title={current?.hint}>
          <span aria-hidden>⚠ </span>auto: nothing asks first
        </span>
      )}
      {props.rules}
      {props.gauge}
      {props.cost}
      <button className="icon-button" onClick={() => props.onOpenSettings()} aria-label="Settings" title="Settings">
        <span aria-hidden>⚙</span>
      </button>
      <AppMenu version={state.version} />
    </header>
  );
}
