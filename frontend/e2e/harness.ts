// The browser end-to-end harness: each test gets the real Go backend (the
// dev-tagged binary under Xvfb, serving the built frontend on a loopback port)
// with its own workspace, config and data folders, its own fake model server,
// and an explicit approval mode. Tests drive the page in headless Chromium.
import { test as base, expect, type Page } from "@playwright/test";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const devBinary = process.env.GATEHOUSE_DEV_BIN || path.join(root, "build/out/gatehouse-dev");
const fakeLLMBinary = process.env.GATEHOUSE_FAKELLM_BIN || path.join(root, "build/out/fakellm");

export type ApprovalMode = "manual" | "safe" | "auto" | "plan";

export interface AppOptions {
  approvalMode: ApprovalMode;
  /** Script for the fake model server (see internal/llm/llmtest); omit for none. A function
   * gets the test's folders (for tool calls that name a path outside the workspace). */
  script?: unknown | ((dirs: { home: string; workspace: string }) => unknown);
  /** Files to create in the workspace before start: relative path → content. */
  files?: Record<string, string>;
  /** Files to create in the test's home folder before start (its ~): relative path → content. */
  homeFiles?: Record<string, string>;
  /** More saved settings (budget limits, prices), merged into settings.json. */
  settings?: Record<string, unknown>;
  /** Write no settings: the app starts on its first-run screen. */
  firstRun?: boolean;
  /** The user's MCP servers (the mcpServers object of Gatehouse's mcp.json). */
  mcpServers?: Record<string, unknown>;
}

export interface App {
  page: Page;
  url: string;
  workspace: string;
  configDir: string;
  dataDir: string;
  /** The fake model server's base URL (…/v1), when a script was given. */
  modelURL?: string;
  /** Everything the backend printed so far. */
  log: () => string;
  /** Requests the fake model server received. */
  modelRequests: () => Promise<unknown[]>;
  /** Problems the fake server found (a tool call without its result, …). */
  modelViolations: () => Promise<string[]>;
  /** Stops the backend and starts it again on the same folders, then reloads the page (new url). */
  restart: () => Promise<void>;
  /** The text on the X clipboard of the display the backend runs on (xclip -o under its DISPLAY). */
  clipboard: () => string;
}

/** DISPLAY and XAUTHORITY of the dev binary that xvfb-run (pid) started: its own environment. */
function backendDisplay(xvfbRunPid: number): NodeJS.ProcessEnv {
  const children = (pid: number) =>
    execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").map((l) => Number(l.trim())).filter(Boolean);
  const queue = [xvfbRunPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    let comm = "";
    try {
      comm = fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    if (comm.startsWith("gatehouse-dev")) {
      const env: NodeJS.ProcessEnv = {};
      for (const kv of fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
        const i = kv.indexOf("=");
        if (i > 0 && (kv.startsWith("DISPLAY=") || kv.startsWith("XAUTHORITY="))) env[kv.slice(0, i)] = kv.slice(i + 1);
      }
      return env;
    }
    try {
      queue.push(...children(pid));
    } catch {
      // no children
    }
  }
  throw new Error(`no gatehouse-dev process under xvfb-run ${xvfbRunPid}`);
}

/** Creates files (relative path → content) under base. */
function writeTree(base: string, files: Record<string, string> | undefined) {
  for (const [rel, content] of Object.entries(files ?? {})) {
    const p = path.join(base, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Waits until something accepts connections on the loopback port. */
async function waitForPort(port: number, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, "127.0.0.1");
      sock.once("connect", () => (sock.destroy(), resolve(true)));
      sock.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until out() matches re, or the child exits, or the time is up. */
function waitForOutput(child: ChildProcess, out: () => string, re: RegExp, what: string, ms = 45_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = out().match(re);
      if (m) {
        done();
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`${what} exited (${code}) before it was ready:\n${out()}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what} not ready after ${ms} ms:\n${out()}`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", onExit);
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", onExit);
    check();
  });
}

function startProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(cmd, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d.toString()));
  child.stderr!.on("data", (d) => (output += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      return;
    }
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, 5000);
    await exited;
    clearTimeout(t);
  };
  return { child, output: () => output, stop };
}

/** Environment without the developer's own model account or display
 * (GATEHOUSE_SANDBOX_LAYERS passes: `make test-landlock-only` sets it). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "GATEHOUSE_SANDBOX_LAYERS") {
      env[k] = v;
      continue;
    }
    if (k.startsWith("OPENAI_") || k.startsWith("GATEHOUSE_") || k === "DISPLAY" || k === "WAYLAND_DISPLAY") continue;
    env[k] = v;
  }
  return env;
}

export const test = base.extend<{ app: (opts: AppOptions) => Promise<App> }>({
  app: async ({ page }, use, testInfo) => {
    const stops: Array<() => Promise<void>> = [];
    const logs: Array<() => string> = [];
    const tmps: string[] = [];
    await use(async (opts) => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-e2e-"));
      tmps.push(tmp);
      const home = path.join(tmp, "home");
      const workspace = path.join(tmp, "workspace");
      const configHome = path.join(home, ".config");
      const dataHome = path.join(home, ".local", "share");
      for (const d of [home, workspace, configHome, dataHome]) fs.mkdirSync(d, { recursive: true });
      writeTree(workspace, opts.files);
      const env = { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: configHome, XDG_DATA_HOME: dataHome };

      let modelURL: string | undefined;
      if (opts.script !== undefined) {
        const scriptPath = path.join(tmp, "script.json");
        const script = typeof opts.script === "function" ? opts.script({ home, workspace }) : opts.script;
        fs.writeFileSync(scriptPath, JSON.stringify(script));
        const fake = startProcess(fakeLLMBinary, ["-script", scriptPath, "-addr", "127.0.0.1:0"], env);
        stops.push(fake.stop);
        logs.push(fake.output);
        const m = await waitForOutput(fake.child, fake.output, /(http:\/\/127\.0\.0\.1:\d+)\S*/, "fake model server");
        modelURL = m[1] + "/v1";
      }
      if (!opts.firstRun) {
        const dir = path.join(configHome, "gatehouse");
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(
          path.join(dir, "settings.json"),
          JSON.stringify({ baseURL: modelURL ?? "http://127.0.0.1:9/v1", model: "fake-model", approvalMode: opts.approvalMode, ...opts.settings }),
        );
        fs.writeFileSync(path.join(dir, "api-key"), "sk-test-e2e", { mode: 0o600 });
      }
      if (opts.mcpServers) {
        const dir = path.join(configHome, "gatehouse");
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(path.join(dir, "mcp.json"), JSON.stringify({ mcpServers: opts.mcpServers }), { mode: 0o600 });
      }

      writeTree(home, opts.homeFiles);

      const startBackend = async () => {
        const port = await freePort();
        const appEnv = {
          ...env,
          GATEHOUSE_WORKSPACE: workspace,
          GATEHOUSE_APPROVAL: opts.approvalMode,
          assetdir: path.join(root, "frontend/dist"),
          devserver: `127.0.0.1:${port}`,
          WEBKIT_DISABLE_COMPOSITING_MODE: "1",
          LIBGL_ALWAYS_SOFTWARE: "1",
        };
        const backend = startProcess("xvfb-run", ["-a", "-s", "-screen 0 1440x900x24", devBinary], appEnv);
        stops.unshift(backend.stop);
        logs.unshift(backend.output);
        await waitForOutput(backend.child, backend.output, /Serving DevServer at/, "gatehouse dev backend");
        await waitForPort(port);
        const url = `http://127.0.0.1:${port}/`;
        await page.goto(url);
        await expect(page.getByRole("combobox", { name: "Approval mode" })).toBeVisible();
        return { backend, url };
      };
      let current = await startBackend();
      const get = async (p: string) => {
        if (!modelURL) return [];
        const r = await fetch(modelURL.replace(/\/v1$/, "") + p);
        return r.json();
      };
      const app: App = {
        page,
        url: current.url,
        workspace,
        configDir: path.join(configHome, "gatehouse"),
        dataDir: path.join(dataHome, "gatehouse"),
        modelURL,
        log: () => current.backend.output(),
        modelRequests: () => get("/_requests"),
        modelViolations: () => get("/_violations"),
        restart: async () => {
          await current.backend.stop();
          current = await startBackend();
          app.url = current.url;
        },
        clipboard: () =>
          execFileSync("xclip", ["-o", "-selection", "clipboard"], {
            encoding: "utf8", timeout: 10_000, env: { ...process.env, ...backendDisplay(current.backend.child.pid!) },
          }),
      };
      return app;
    });
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [i, l] of logs.entries()) await testInfo.attach(`process-${i}.log`, { body: l(), contentType: "text/plain" });
    }
    for (const s of stops) await s();
    // A failed test's folders stay for a look; a passed one's go.
    if (testInfo.status === testInfo.expectedStatus) for (const t of tmps) fs.rmSync(t, { recursive: true, force: true });
  },
});

export { expect };

/** A scripted model response that calls tool name with args. */
export const toolCall = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

/** Types text into the message box and sends it. */
export async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}
