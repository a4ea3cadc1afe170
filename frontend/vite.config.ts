import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The page is written against React's API and runs on Preact's (preact/compat):
// the same components in a fifth of the script, which the page parses and
// runs before its first frame. Tests run on the same aliases, so they test
// what ships.
export const preact = [
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom\/test-utils$/, replacement: "preact/test-utils" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-dev-runtime" },
  { find: /^react$/, replacement: "preact/compat" },
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: preact },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    // Tests that render the whole App take seconds on a loaded machine: a
    // timeout is a hang guard here, not a speed check (make bench measures).
    testTimeout: 20000,
    // Bundled through Vite so the aliases reach their imports of react.
    server: { deps: { inline: [/@testing-library\/react/, /@tanstack/] } },
    alias: [{ find: /^@testing-library\/react$/, replacement: "@testing-library/react/dist/@testing-library/react.esm.js" }],
  },
});
