// End-to-end test of `gatehouse acp`: the real binary, spawned as an editor
// spawns it, driven over real stdio by the official ACP TypeScript SDK
// (client().onRequest(…).connectWith(ndJsonStream(…))) against the scripted
// fake model server (fakellm). Run by `make test-acp`.
//
// GATEHOUSE_BIN and FAKELLM_BIN name the binaries (default: build/out).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const gatehouseBin = process.env.GATEHOUSE_BIN || path.join(root, "build/out/gatehouse");
const fakellmBin = process.env.FAKELLM_BIN || path.join(root, "build/out/fakellm");

const patch = (file) =>
  JSON.stringify({ patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-old\n+new\n*** End Patch` });
const writeNotes = JSON.stringify({ path: "notes.txt", content: "hi\n" });
const call = (id, name, args) => ({ toolCalls: [{ id, name, arguments: args }] });

// One model response per request, in the order the scenario makes them.
const script = {
  models: ["fake-model"],
  responses: [
    { text: "Changing it.", ...call("call_a", "apply_patch", patch("a.txt")) }, // allow_once
    { text: "Done." },
    call("call_b", "apply_patch", patch("b.txt")), // reject_once: the turn ends blocked
    call("call_n1", "write_file", writeNotes), // allow_always
    call("call_n2", "write_file", writeNotes), // covered by the rule: no request
    { text: "Written twice." },
    call("call_c", "apply_patch", patch("c.txt")), // cancelled while asking
    call("call_x", "bash", JSON.stringify({ action: "exec", command: "echo ran > ran.txt; echo ran it" })), // auto
    { text: "Ran it." },
    { text: "Still here." }, // after session/load
  ],
};

function tempDir(name) {
  return realpathSync(mkdtempSync(path.join(tmpdir(), `gatehouse-acp-${name}-`)));
}

async function startFakeLLM(dir, withScript = script) {
  const file = path.join(dir, "script.json");
  writeFileSync(file, JSON.stringify(withScript));
  const proc = spawn(fakellmBin, ["-script", file], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (b) => {
      out += b;
      if (out.includes("\n")) resolve(out.split("\n")[0].trim());
    });
    proc.on("exit", (code) => reject(new Error(`fakellm exited ${code}`)));
  });
  return { url, proc };
}

// startAgent spawns `gatehouse acp` with its own config and data folders.
// Every byte it writes on stdout is kept, to check it is only protocol.
function startAgent(url, home, args = []) {
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, "config"), XDG_DATA_HOME: path.join(home, "data") };
  for (const k of Object.keys(env)) if (k.startsWith("OPENAI_") || k === "GATEHOUSE_APPROVAL") delete env[k];
  const proc = spawn(gatehouseBin, ["acp", "--base-url", url, "--model", "fake-model", ...args], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stdout = [];
  let stderr = "";
  proc.stderr.on("data", (b) => (stderr += b));
  let open = true; // until the end of stdout or the reader's cancel
  const input = new ReadableStream({
    start(controller) {
      proc.stdout.on("data", (b) => {
        stdout.push(Buffer.from(b));
        if (open) controller.enqueue(new Uint8Array(b));
      });
      proc.stdout.on("end", () => {
        if (open) controller.close();
        open = false;
      });
    },
    cancel() {
      open = false;
    },
  });
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  return { proc, input, output: Writable.toWeb(proc.stdin), stdout, stderr: () => stderr, exited };
}

// editor is an ACP client that records updates and answers permission
// requests with answer(params, ctx).
function editor(answer) {
  const updates = [];
  const permissions = [];
  const app = client({ name: "gatehouse-e2e" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    })
    .onRequest("session/request_permission", async (ctx) => {
      permissions.push(ctx.params);
      return answer(ctx.params, ctx);
    });
  return { app, updates, permissions };
}

const selected = (optionId) => ({ outcome: { outcome: "selected", optionId } });
const agentText = (updates) =>
  updates
    .filter((u) => u.update.sessionUpdate === "agent_message_chunk")
    .map((u) => u.update.content.text)
    .join("");
const lastUpdateOf = (updates, id) =>
  updates.filter((u) => u.update.sessionUpdate === "tool_call_update" && u.update.toolCallId === id).at(-1)?.update;

function checkStdoutIsProtocol(agent) {
  const lines = Buffer.concat(agent.stdout).toString("utf8").split("\n").filter((l) => l !== "");
  assert.ok(lines.length > 0);
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", `stdout line ${line}`);
}

test("gatehouse acp over stdio: approvals, modes, cancel, load", async () => {
  const home = tempDir("home");
  const ws = tempDir("ws");
  for (const f of ["a.txt", "b.txt", "c.txt"]) writeFileSync(path.join(ws, f), "old\n");
  const llm = await startFakeLLM(home);
  try {
    const agent = startAgent(llm.url, home);
    // A line that is not JSON-RPC first: it is skipped, the agent serves on.
    await agent.proc.stdin.write("this is not json\n");
    let step = "";
    const ed = editor(async (params, ctx) => {
      const kinds = params.options.map((o) => o.kind);
      switch (step) {
        case "allow_once":
          assert.deepEqual(kinds, ["allow_once", "allow_always", "reject_once"]);
          return selected(params.options.find((o) => o.kind === "allow_once").optionId);
        case "reject_once":
          return selected(params.options.find((o) => o.kind === "reject_once").optionId);
        case "allow_always":
          return selected(params.options.find((o) => o.kind === "allow_always").optionId);
        case "cancel":
          await ctx.agent.notify("session/cancel", { sessionId: params.sessionId });
          return { outcome: { outcome: "cancelled" } };
      }
      throw new Error(`permission asked in step ${step}`);
    });
    let sessionId;
    await ed.app.connectWith(ndJsonStream(agent.output, agent.input), async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      assert.equal(init.agentCapabilities.loadSession, true);
      assert.equal(init.agentCapabilities.promptCapabilities?.image, true);

      const s = await ctx.request("session/new", { cwd: ws, mcpServers: [] });
      sessionId = s.sessionId;
      assert.equal(s.modes.currentModeId, "safe");
      const prompt = (text) => ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });

      step = "allow_once";
      assert.equal((await prompt("change a.txt")).stopReason, "end_turn");
      assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "new\n");
      const diff = ed.permissions[0].toolCall.content[0];
      assert.deepEqual([diff.type, diff.path, diff.oldText, diff.newText], ["diff", "a.txt", "old\n", "new\n"]);
      const started = ed.updates.find((u) => u.update.sessionUpdate === "tool_call" && u.update.toolCallId === "call_a");
      assert.equal(started.update.kind, "edit");
      assert.equal(started.update.locations[0].path, path.join(ws, "a.txt"));
      assert.equal(lastUpdateOf(ed.updates, "call_a").status, "completed");
      assert.equal(lastUpdateOf(ed.updates, "call_a").content[0].type, "diff");

      step = "reject_once";
      assert.equal((await prompt("change b.txt")).stopReason, "end_turn");
      assert.equal(readFileSync(path.join(ws, "b.txt"), "utf8"), "old\n");
      assert.match(ed.updates.at(-1).update.content.text, /apply_patch was blocked by approval \(rejected in the editor\)/);

      step = "allow_always";
      const asked = ed.permissions.length;
      assert.equal((await prompt("write notes twice")).stopReason, "end_turn");
      assert.equal(ed.permissions.length, asked + 1, "the second identical call asked again");
      assert.equal(lastUpdateOf(ed.updates, "call_n2").status, "completed");

      step = "cancel";
      assert.equal((await prompt("change c.txt")).stopReason, "cancelled");
      assert.equal(readFileSync(path.join(ws, "c.txt"), "utf8"), "old\n");

      step = "none";
      await ctx.request("session/set_mode", { sessionId, modeId: "auto" });
      assert.equal((await prompt("run it")).stopReason, "end_turn");
      assert.equal(readFileSync(path.join(ws, "ran.txt"), "utf8"), "ran\n");
      const bash = lastUpdateOf(ed.updates, "call_x");
      assert.match(bash.content[0].content.text, /\$ echo ran > ran\.txt; echo ran it\nran it/);

      await assert.rejects(ctx.request("nosuch/method", {}), (err) => err.code === -32601);
      await assert.rejects(
        ctx.request("session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }),
        (err) => err.code === -32602,
      );
    }).catch((err) => {
      throw new Error(`${err.stack}\n--- gatehouse stderr:\n${agent.stderr()}`);
    });
    agent.proc.stdin.end();
    assert.equal(await agent.exited, 0, agent.stderr());
    checkStdoutIsProtocol(agent);
    assert.match(agent.stderr(), /failed to parse incoming message/);

    // A second run loads the saved session: its transcript comes back as updates.
    const again = startAgent(llm.url, home);
    const ed2 = editor(() => {
      throw new Error("asked after load");
    });
    await ed2.app.connectWith(ndJsonStream(again.output, again.input), async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await ctx.request("session/load", { sessionId, cwd: ws, mcpServers: [] });
      const users = ed2.updates.filter((u) => u.update.sessionUpdate === "user_message_chunk").map((u) => u.update.content.text);
      assert.deepEqual(users, ["change a.txt", "change b.txt", "write notes twice", "change c.txt", "run it"]);
      assert.match(agentText(ed2.updates), /Changing it\.Done\./);
      assert.ok(ed2.updates.some((u) => u.update.sessionUpdate === "tool_call" && u.update.toolCallId === "call_a"));
      const r = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "still there?" }] });
      assert.equal(r.stopReason, "end_turn");
    }).catch((err) => {
      throw new Error(`${err.stack}\n--- gatehouse stderr:\n${again.stderr()}`);
    });
    again.proc.stdin.end();
    assert.equal(await again.exited, 0, again.stderr());
    checkStdoutIsProtocol(again);

    const violations = await (await fetch(llm.url.replace(/\/v1$/, "/_violations"))).json();
    assert.deepEqual(violations, []);
  } finally {
    llm.proc.kill("SIGTERM");
  }
});

// The permission request carries the warnings the window's dialog shows
// (one Go function renders them for every host): what a command destroys,
// a write into .git, the network, and the sandbox line.
test("gatehouse acp: the permission request carries the dialog's warnings", async () => {
  const home = tempDir("home-warn");
  const ws = tempDir("ws-warn");
  const llm = await startFakeLLM(home, {
    models: ["fake-model"],
    responses: [
      call("call_push", "bash", JSON.stringify({ action: "exec", command: "git push --force origin main" })),
      call("call_hook", "bash", JSON.stringify({ action: "exec", command: "echo x > .git/hooks/pre-commit" })),
    ],
  });
  try {
    const agent = startAgent(llm.url, home);
    const ed = editor(async (params) => selected(params.options.find((o) => o.kind === "reject_once").optionId));
    await ed.app.connectWith(ndJsonStream(agent.output, agent.input), async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await ctx.request("session/new", { cwd: ws, mcpServers: [] });
      const prompt = (text) => ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
      await prompt("force push");
      await prompt("add a hook");
    }).catch((err) => {
      throw new Error(`${err.stack}\n--- gatehouse stderr:\n${agent.stderr()}`);
    });
    agent.proc.stdin.end();
    assert.equal(await agent.exited, 0, agent.stderr());
    const texts = ed.permissions.map((p) => p.toolCall.content.map((c) => c.content?.text ?? "").join("\n"));
    assert.equal(texts.length, 2);
    const [push, hook] = texts;
    assert.match(push, /^\$ git push --force origin main$/m);
    assert.match(push, /^⚠ git push --force origin main: rewrites history on the remote; uses the network$/m);
    // The dialog's line: the layers and what a confined command reaches, or why not.
    assert.match(push, /^Sandbox: (confined by .*Landlock ABI \d+.* Reads: all but ~\/\.ssh.*|not confined — can write anywhere you can)$/m);
    assert.match(hook, /^⚠ echo x > \.git\/hooks\/pre-commit: writes into \.git \(can make git run code\)$/m);
    assert.match(hook, /^Sandbox: /m);
  } finally {
    llm.proc.kill("SIGTERM");
  }
});

// A 1×1 PNG, as an editor attaches a screenshot.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

test("gatehouse acp: an image block reaches the model; a model that cannot see refuses it", async () => {
  const home = tempDir("home-img");
  const ws = tempDir("ws-img");
  const seeing = await startFakeLLM(home, {
    models: ["fake-model"],
    modelMeta: { "fake-model": { architecture: { input_modalities: ["text", "image"] } } },
    responses: [{ text: "One pixel." }],
  });
  const blindHome = tempDir("home-img-blind");
  const blind = await startFakeLLM(blindHome, {
    models: ["fake-model"],
    modelMeta: { "fake-model": { architecture: { input_modalities: ["text"] } } },
    responses: [],
  });
  try {
    for (const [llm, h, sees] of [[seeing, home, true], [blind, blindHome, false]]) {
      const agent = startAgent(llm.url, h);
      const ed = editor(async () => selected("reject"));
      let refusal = null;
      await ed.app.connectWith(ndJsonStream(agent.output, agent.input), async (ctx) => {
        const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
        assert.equal(init.agentCapabilities.promptCapabilities.image, true);
        const { sessionId } = await ctx.request("session/new", { cwd: ws, mcpServers: [] });
        const prompt = [{ type: "text", text: "what is this?" }, { type: "image", mimeType: "image/png", data: onePixelPNG }];
        try {
          await ctx.request("session/prompt", { sessionId, prompt });
        } catch (err) {
          refusal = err;
        }
      }).catch((err) => {
        throw new Error(`${err.stack}\n--- gatehouse stderr:\n${agent.stderr()}`);
      });
      agent.proc.stdin.end();
      assert.equal(await agent.exited, 0, agent.stderr());
      const base = llm.url.replace(/\/v1\/?$/, "");
      const requests = await (await fetch(`${base}/_requests`)).json();
      const posts = requests.filter((r) => r.method === "POST");
      if (sees) {
        assert.equal(refusal, null);
        assert.match(agentText(ed.updates), /One pixel\./);
        assert.equal(posts.length, 1);
        assert.deepEqual(posts[0].images.map((i) => [i.role, i.mime, i.detail, i.bytes]), [["user", "image/png", "auto", Buffer.from(onePixelPNG, "base64").length]]);
      } else {
        assert.ok(refusal, "the prompt with an image was taken");
        assert.match(String(refusal.message), /cannot see images/);
        assert.equal(posts.length, 0);
      }
      assert.deepEqual(await (await fetch(`${base}/_violations`)).json(), []);
    }
  } finally {
    seeing.proc.kill("SIGTERM");
    blind.proc.kill("SIGTERM");
  }
});
