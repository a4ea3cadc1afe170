// The approval dialog's render benchmark page (make bench-dialog): built on
// its own, never part of the app's dist.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: "./",
  plugins: [react()],
  build: { outDir: path.resolve(here, "../../build/out/bench-dialog"), emptyOutDir: true, sourcemap: false },
});
