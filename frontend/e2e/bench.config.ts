// make bench-dialog's measurements against the real backend: the e2e
// harness and browser, files named *.bench.ts, output printed, nothing asserted.
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

export default defineConfig({ ...base, testMatch: /.*\.bench\.ts/, timeout: Number(process.env.BENCH_TIMEOUT || 600_000) });
