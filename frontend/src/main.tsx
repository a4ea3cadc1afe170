import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { backend } from "./bridge";
import { approvalBackend } from "./bridge/approval";
import { processBackend } from "./bridge/processes";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App backend={backend} processes={processBackend} approvals={approvalBackend} />
  </StrictMode>,
);
