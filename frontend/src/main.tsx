import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { backend } from "./bridge";
import { approvalBackend } from "./bridge/approval";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App backend={backend} approvals={approvalBackend} />
  </StrictMode>,
);
