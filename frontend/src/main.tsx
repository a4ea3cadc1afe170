import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, applyTheme } from "./App";
import { backend, type AppState } from "./bridge";
import { approvalBackend } from "./bridge/approval";
import { processBackend } from "./bridge/processes";
import { sessionsBackend } from "./bridge/sessions";
import { detectLocalModels } from "./bridge/localModels";
import { filesBackend } from "./bridge/files";
import { leftoverBackend, sandboxBackend } from "./bridge/sandbox";
import { mcpBackend } from "./bridge/mcp";
import { agentsTrustBackend, trustedFoldersBackend } from "./bridge/agents";
import { commandsTrustBackend } from "./bridge/commands";
import { policyBackend } from "./bridge/policy";
import { undoBackend } from "./bridge/undo";
import { gitBackend } from "./bridge/git";
import { tabsBackend } from "./bridge/tabs";
import "./styles.css";

const root = createRoot(document.getElementById("root")!);

function mount(initialState?: AppState) {
  root.render(
    <StrictMode>
      <App backend={backend} processes={processBackend} sessions={sessionsBackend} localModels={detectLocalModels} files={filesBackend} approvals={approvalBackend} initialState={initialState} mcp={mcpBackend} agentsTrust={agentsTrustBackend} commandsTrust={commandsTrustBackend} trusted={trustedFoldersBackend} policy={policyBackend} sandbox={sandboxBackend} leftovers={leftoverBackend} undo={undoBackend} git={gitBackend} tabs={tabsBackend} />
    </StrictMode>,
  );
}

// The first frame is the real one: the page draws nothing (the window's own
// background) until it has the frame's state, in its theme, rather than
// drawing a loading screen first and then everything again. When State
// fails, App asks again and shows the error.
backend.state().then((s) => {
  applyTheme(s.theme);
  mount(s);
}, () => mount());
