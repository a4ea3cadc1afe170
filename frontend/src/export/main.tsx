// The exported page's script: Go writes the session as JSON into the page
// (internal/export) and this draws it with the window's own components.
import { createRoot } from "react-dom/client";
import { applyFonts } from "../fonts";
import { loadRich } from "../rich";
import { ExportPage, type ExportData } from "./ExportPage";
import "../styles.css";

const data = JSON.parse(document.getElementById("gatehouse-session")?.textContent ?? "null") as ExportData | null;
const root = document.getElementById("root")!;
applyFonts();
// Highlighting and markdown are in this same file: drawn once, rich from the start.
void loadRich().finally(() => {
  if (!data) {
    root.textContent = "This page holds no session.";
    return;
  }
  createRoot(root).render(<ExportPage data={data} unfolded={location.hash === "#unfold"} />);
});
