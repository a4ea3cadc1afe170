import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { backend } from "./bridge";
import { approvalBackend } from "./bridge/approval";
import { processBackend } from "./bridge/processes";
import { sessionsBackend } from "./bridge/sessions";
import { detectLocalModels } from "./bridge/localModels";
import { filesBackend } from "./bridge/files";
import "./styles.css";

// Ask for the frame's state before React's first render, not after it: the
// answer is what the first real frame waits for.
const initialState = backend.state();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App backend={backend} processes={processBackend} sessions={sessionsBackend} localModels={detectLocalModels} files={filesBackend} approvals={approvalBackend} initialState={initialState} />
  </StrictMode>,
);
