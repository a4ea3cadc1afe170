import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { backend } from "./bridge";
import { sessionsBackend } from "./bridge/sessions";
import { detectLocalModels } from "./bridge/localModels";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App backend={backend} sessions={sessionsBackend} localModels={detectLocalModels} />
  </StrictMode>,
);
