import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { preact } from "./vite.config.ts";

// The exported page's renderer (src/export): the window's transcript
// components and CSS as one classic script and one style sheet, which Go
// embeds (internal/export/bundle) and inlines into every HTML export with
// the session's data. One file each, nothing loaded later: dynamic imports
// are inlined and every asset becomes a data URL.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: preact },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  publicDir: false,
  build: {
    outDir: "../internal/export/bundle",
    emptyOutDir: false,
    sourcemap: false,
    assetsInlineLimit: () => true,
    lib: {
      entry: "src/export/main.tsx",
      formats: ["iife"],
      name: "GatehouseExport",
      fileName: () => "export.js",
      cssFileName: "export",
    },
  },
});
