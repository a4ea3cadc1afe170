import { useEffect, useRef, useState } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import "@xterm/xterm/css/xterm.css";
import type { ProcessBackend, ProcessInfo } from "../bridge/processes";
import { FrameWriter } from "../processes/frameWriter";
import { OutputStream } from "../processes/output";
import { formatBytes, statusText } from "../processes/list";

/** Output loaded when a process is selected: what the ring buffer holds (2 MiB). */
const TAIL_BYTES = 2 << 20;
const SCROLLBACK_LINES = 20_000;
/** Characters waiting for the terminal beyond which gaps are not fetched back. */
const FLOOD_BACKLOG = 256 << 10;

const dim = (s: string) => `\r\n\x1b[2m[… ${s} …]\x1b[0m\r\n`;

function themeFromPage() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    fontFamily: v("--font-mono", "monospace"),
    theme: { background: v("--surface", "#ffffff"), foreground: v("--text", "#1d2024"), cursor: v("--text", "#1d2024"), selectionBackground: "#7aa2ff66" },
  };
}

/** Every line of the terminal's buffer as text, wrapped lines joined. */
function bufferText(term: Terminal): string {
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buf.length; i++) {
    const line = buf.getLine(i);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

// The selected process's output in a real terminal: live, in byte order,
// typed input goes to the process while it runs; ended ones are read-only.
export function ProcessPanelTerminal({ backend, info, onRestarted }: {
  backend: ProcessBackend;
  info: ProcessInfo;
  /** Called with the new process after a restart, to select it. */
  onRestarted?: (p: ProcessInfo) => void;
}) {
  const id = info.processId;
  const live = info.status === "running" && !info.restored;
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const liveRef = useRef(live);
  const [notice, setNotice] = useState("");
  const [stopping, setStopping] = useState(false);

  useEffect(() => {
    const el = host.current!;
    const term = new Terminal({ ...themeFromPage(), fontSize: 13, scrollback: SCROLLBACK_LINES, disableStdin: !liveRef.current, cursorBlink: false });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(el);
    termRef.current = term;

    const writer = new FrameWriter((data, done) => term.write(data, done), { dropMarker: (n) => dim(`${n} characters dropped while the view caught up`) });
    const stream = new OutputStream({
      fetch: (offset, limit) => backend.logs(id, offset, limit),
      emit: (p) => writer.push(p.kind === "data" ? p.data : dim(`${formatBytes(p.bytes)} of output not shown`)),
      onError: (err) => setNotice(`Could not read the output: ${String(err)}`),
    }, { fetchGaps: () => writer.backlog < FLOOD_BACKLOG });
    const unsubscribe = backend.subscribe((e) => {
      if (e.type === "process.output" && e.payload.processId === id) void stream.push(e.payload);
    });
    // Replaying saved output makes the terminal answer old queries (cursor
    // position, device attributes); those answers must not reach the process.
    let replaying = true;
    void stream
      .loadTail(TAIL_BYTES)
      .then(() => writer.drained())
      .then(() => (replaying = false));

    const input = term.onData((data) => {
      if (liveRef.current && !replaying) backend.write(id, data).catch((err) => setNotice(`Could not send input: ${String(err)}`));
    });

    // Fit the terminal to the panel and tell the process its size.
    let sent = "";
    const tell = () => {
      const size = `${term.rows}x${term.cols}`;
      if (!liveRef.current || size === sent) return;
      sent = size;
      backend.resize(id, term.rows, term.cols).catch(() => {});
    };
    const refit = () => {
      if (el.clientWidth > 0 && el.clientHeight > 0) {
        try {
          fit.fit();
        } catch {
          // not measurable yet (hidden panel)
        }
      }
      tell();
    };
    const resized = term.onResize(tell);
    const observer = new ResizeObserver(() => refit());
    observer.observe(el);
    refit();

    return () => {
      observer.disconnect();
      resized.dispose();
      input.dispose();
      unsubscribe();
      stream.dispose();
      writer.dispose();
      termRef.current = null;
      term.dispose();
    };
  }, [backend, id]);

  useEffect(() => {
    liveRef.current = live;
    const term = termRef.current;
    if (term) term.options.disableStdin = !live;
  }, [live]);

  const stop = async () => {
    setStopping(true);
    try {
      await backend.stop(id);
    } catch (err) {
      setNotice(`Could not stop it: ${String(err)}`);
    } finally {
      setStopping(false);
    }
  };
  const restart = async () => {
    try {
      onRestarted?.(await backend.restart(id));
    } catch (err) {
      setNotice(`Could not restart it: ${String(err)}`);
    }
  };
  const copy = async () => {
    const term = termRef.current;
    if (!term) return;
    try {
      await backend.copyText(bufferText(term));
      setNotice("Output copied");
      setTimeout(() => setNotice((n) => (n === "Output copied" ? "" : n)), 3000);
    } catch (err) {
      setNotice(`Could not copy: ${String(err)}`);
    }
  };

  return (
    <section className="proc-view" aria-label={`Output of ${info.command}`}>
      <div className="proc-toolbar">
        <span className="proc-view-title" title={info.command}>
          {info.command}
        </span>
        {live && (
          <button onClick={stop} disabled={stopping}>
            {stopping ? "Stopping…" : "Stop"}
          </button>
        )}
        {!live && (
          <button onClick={restart} title="Run the same command again in the same folder">
            Restart
          </button>
        )}
        <button onClick={() => termRef.current?.clear()} title="Clear the view (the process keeps its output)">
          Clear
        </button>
        <button onClick={copy}>Copy output</button>
      </div>
      <div className="proc-term" ref={host} />
      <p className="proc-hint" aria-live="polite">
        {notice || (live ? "Type in the terminal to send input to the process." : `Ended (${statusText(info)}): output is read-only.`)}
      </p>
    </section>
  );
}
