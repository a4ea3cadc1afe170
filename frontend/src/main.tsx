import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { backend } from "./bridge";
import { filesBackend } from "./bridge/files";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App backend={backend} files={filesBackend} />
  </StrictMode>,
);
