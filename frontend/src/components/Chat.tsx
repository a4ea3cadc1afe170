import { useEffect, useMemo, useRef, useState } from "react";
import type { AppState } from "../bridge";
import type { TranscriptView } from "../transcript/store";
import { AgentSourcesContext, AgentsStrip, backgroundAgents, ChildrenContext } from "./ChildView";
import { lastOfKind, Transcript } from "./Transcript";
import { TodoChecklist } from "./TodoChecklist";
import { editableText } from "./skillCard";
import { parseSlash, SlashMenu, slashMatches, type SlashActions } from "./SlashMenu";
import { PromptArgsForm } from "./PromptArgs";
import type { SlashCommand } from "../bridge";
import { completeMention, MentionChips, MentionList, mentionQuery, mentionsIn, type MentionActions } from "./MentionPicker";
import { ChatActionsContext, useChatActions } from "./ChatActions";
import { FindBar } from "./FindBar";
import { findMatches } from "../transcript/search";
import type { MentionCandidate, Submission } from "../bridge";
import { IMAGE_TYPES, imageFiles, pastedImage, useAttachments } from "./images";
import { AttachmentChips } from "./Attachments";

/** The composer's command that compacts the conversation instead of sending. */
export const COMPACT_COMMAND = "/compact";

export interface ChatProps {
  state: AppState;
  transcript: TranscriptView;
  onChooseWorkspace: () => void;
  /** Sends one message (text, @-mentions, pictures, the "/" entry it runs); rejects with a message the user can read. */
  onSubmit: (message: Submission) => Promise<void>;
  /** Sends the last turn's message again, replacing that turn in what the model is sent; absent: no Retry. */
  onRetry?: () => Promise<unknown>;
  onCancel: () => void;
  /** Stops a background agent; the agents strip shows only with it. */
  onStopAgent?: (id: string) => Promise<void>;
  /** The file each agent's definition came from, by agent name. */
  agentSources?: Readonly<Record<string, string>>;
  /** Changes when find was asked for (Ctrl+F): the find bar opens, or takes focus again. */
  findSignal?: number;
  /** Said once above the conversation: the window started in auto mode. */
  notice?: string;
  /** Slash commands beyond /compact: the list under "/", the user's own, /plan, /clear. */
  slash?: SlashActions;
  /** @-mentions of workspace files and folders; without them "@" is plain text. */
  mentions?: MentionActions;
}

export function Chat(props: ChatProps) {
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const hasWorkspace = props.state.workspace !== "";
  const running = props.transcript.turnId !== "";
  const composer = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const attachments = useAttachments();
  const ready = attachments.list.filter((a) => a.state === "ready" && a.image).map((a) => a.image!);
  const reading = attachments.list.some((a) => a.state === "reading");
  const [dragging, setDragging] = useState(false);

  // Find in the conversation: matches come from the items, so rows scrolled away and folded output count.
  const [find, setFind] = useState<{ query: string; at: number; n: number } | null>(null);
  const openFind = () => setFind((f) => ({ query: f?.query ?? "", at: f?.at ?? 0, n: (f?.n ?? 0) + 1 }));
  const { findSignal } = props;
  useEffect(() => {
    if (findSignal) openFind();
  }, [findSignal]);
  const matches = useMemo(() => (find ? findMatches(props.transcript.items, find.query) : []), [find?.query, props.transcript.items]); // eslint-disable-line react-hooks/exhaustive-deps
  const at = matches.length ? Math.min(find?.at ?? 0, matches.length - 1) : -1;
  const match = at >= 0 ? matches[at] : undefined;

  // Retry and Edit on the last turn, while nothing runs.
  const parent = useChatActions();
  const { items } = props.transcript;
  // A /name message goes back as /name and the user's text, not the skill's body.
  const lastPrompt = useMemo(() => editableText(items[lastOfKind(items, "user")]?.text ?? ""), [items]);
  const { onRetry } = props;
  const actions = useMemo(() => {
    if (running || !lastPrompt || !hasWorkspace) return parent;
    return {
      ...parent,
      retry: onRetry && (() => {
        setError(null);
        onRetry().catch((e) => setError(String(e instanceof Error ? e.message : e)));
      }),
      editLast: () => {
        setDraft(lastPrompt);
        composer.current?.focus();
      },
    };
  }, [parent, running, lastPrompt, hasWorkspace, onRetry]);
  const { compact } = parent;
  const [compacting, setCompacting] = useState(false);
  const canCompact = hasWorkspace && !running && !compacting && !!compact && props.transcript.items.length > 0;

  const runCompact = () => {
    if (!compact) return;
    setError(null);
    setCompacting(true);
    compact()
      .catch((e) => setError(String(e instanceof Error ? e.message : e)))
      .finally(() => setCompacting(false));
  };

  // Slash commands: listed while "/name" is typed, read again each time "/" starts a draft.
  const { slash } = props;
  const [cmds, setCmds] = useState<SlashCommand[]>([]);
  const [active, setActive] = useState(0);
  useEffect(() => {
    if (draft !== "/" || !slash) return;
    let live = true;
    slash.list().then((c) => live && setCmds(c), () => {});
    return () => {
      live = false;
    };
  }, [draft, slash]);
  const slashed = slash ? slashMatches(draft, cmds) : [];
  // An MCP prompt that takes arguments asks them in a small form, then goes through the one send.
  const [asking, setAsking] = useState<SlashCommand | null>(null);
  const pick = (c: SlashCommand) => {
    if (c.origin === "mcp-prompt" && (c.arguments?.length ?? 0) > 0) {
      setDraft("");
      setActive(0);
      setAsking(c);
      return;
    }
    setDraft(`/${c.name} `);
    setActive(0);
    composer.current?.focus();
  };
  // @-mentions: a picker while an @-token is typed; picked paths are chips, sent attached.
  const { mentions } = props;
  const query = mentions ? mentionQuery(draft) : undefined;
  const [options, setOptions] = useState<MentionCandidate[]>([]);
  const [picked, setPicked] = useState<MentionCandidate[]>([]);
  useEffect(() => {
    if (query === undefined || !mentions) {
      setOptions([]);
      return;
    }
    let live = true;
    mentions.candidates(query).then((o) => live && setOptions(o), () => {});
    return () => {
      live = false;
    };
  }, [query, mentions]);
  const pickMention = (c: MentionCandidate) => {
    setDraft((d) => completeMention(d, c.mention));
    setPicked((ps) => (ps.some((x) => x.mention === c.mention) ? ps : [...ps, c]));
    setOptions([]);
    setActive(0);
    composer.current?.focus();
  };
  // A path the user's policy denies is never offered; typed exactly, the composer says why.
  const shown = query !== undefined ? options.filter((o) => !o.refused) : [];
  const refusal = query !== undefined ? options.find((o) => o.refused) : undefined;
  const menu = slashed.length > 0 ? slashed.map((c) => `/${c.name}`) : shown.map((c) => c.mention);

  // A built-in the window runs itself; undefined when the draft names none (it is sent).
  const builtin = async (p: { name: string; args: string }, sl: SlashActions): Promise<(() => unknown) | undefined> => {
    const list = cmds.some((c) => c.name === p.name) ? cmds : await sl.list();
    if (!list.some((c) => c.name === p.name && c.origin === "built-in")) return undefined;
    switch (p.name) {
      case "plan":
        return () => sl.plan?.();
      case "clear":
        return () => sl.clear?.();
      case "experimental":
        return () => sl.experimental?.(p.args);
      case "undo":
        return () => {
          const turn = [...items].reverse().find((it) => it.kind === "stop" && parent.undo?.units.has(it.turnId));
          if (!turn) throw new Error("No turn to undo: the last turns changed no files.");
          return parent.undo!.open(turn.turnId, "undo");
        };
    }
    return undefined;
  };

  // The one send: the draft, its @-mentions, its pictures and the "/" entry it names go as one message (a "/…"
  // that names no entry, a path, is plain text); on failure everything comes back to the composer.
  const send = (typed?: string) => {
    const text = (typed ?? draft).trim();
    if (!hasWorkspace || (text === "" && ready.length === 0) || reading) return;
    if (text === COMPACT_COMMAND && compact) {
      if (running) {
        setError("A turn is running; compact when it has stopped.");
        setDraft(text);
        return;
      }
      setDraft("");
      runCompact();
      return;
    }
    const images = ready;
    const attached = mentions ? mentionsIn(text, new Set(picked.map((c) => c.mention))) : [];
    const named = slash ? parseSlash(text) : undefined;
    const kept = attachments.list;
    const pickedBefore = picked;
    setDraft("");
    setError(null);
    attachments.clear();
    setPicked([]);
    const restore = (e: unknown) => {
      setError(String(e instanceof Error ? e.message : e));
      setDraft((d) => (d === "" ? text : d));
      setPicked(pickedBefore);
      attachments.restore(kept);
    };
    void (async () => {
      const run = named && slash ? await builtin(named, slash) : undefined;
      if (run) {
        attachments.restore(kept);
        setPicked(pickedBefore);
        return run();
      }
      const list = named ? (cmds.some((c) => c.name === named.name) ? cmds : await slash!.list()) : [];
      const command = named && list.some((c) => c.name === named.name && !c.shadowedBy && c.origin !== "built-in") ? named : undefined;
      const message: Submission = { text };
      if (command) message.command = command;
      if (attached.length > 0) message.mentions = attached;
      if (images.length > 0) message.images = images;
      return props.onSubmit(message);
    })().catch(restore);
  };

  // Images come by paste (the page's paste event carries the files), drop, or the attach button.
  const onDrop = (e: React.DragEvent) => {
    setDragging(false);
    const files = imageFiles(e.dataTransfer);
    if (files.length === 0) return;
    e.preventDefault();
    if (hasWorkspace) attachments.add(files);
  };

  // Esc stops the running turn from anywhere in the window.
  const { onCancel } = props;
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector("[aria-modal='true']")) onCancel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, onCancel]);

  const empty = hasWorkspace ? (
    <div className="empty-chat">
      <h1>What should we work on?</h1>
      <p>
        Ask for a change in <strong>{props.state.workspaceName}</strong>. You will see every edit and command before it
        runs.
      </p>
    </div>
  ) : (
    <div className="empty-chat">
      <h1>Choose a folder to start</h1>
      <p>Gatehouse works inside one folder. Nothing outside it is touched.</p>
      <button className="primary" onClick={props.onChooseWorkspace}>
        Choose folder…
      </button>
    </div>
  );

  return (
    <section className={`chat${dragging ? " chat-dropping" : ""}`} aria-label="Chat"
      onDragOver={(e) => {
        // WebKitGTK names a file dragged in from another application by its URI until the drop.
        const types = Array.from(e.dataTransfer?.types ?? []);
        if (!hasWorkspace || !(types.includes("Files") || types.includes("text/uri-list"))) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}>
      {props.transcript.error && (
        <div className="banner error" role="alert">
          {props.transcript.error}
        </div>
      )}
      <div className="chat-tools">
        {find ? (
          <FindBar key={find.n} query={find.query} current={at} total={matches.length}
            onQuery={(query) => setFind({ ...find, query, at: 0 })}
            onStep={(d) => setFind({ ...find, at: (at + d + matches.length) % matches.length })}
            onClose={() => setFind(null)} />
        ) : (
          <button type="button" className="find-open" onClick={openFind} title="Find in the conversation (Ctrl+F)">Find</button>
        )}
      </div>
      <ChatActionsContext.Provider value={actions}>
        <AgentSourcesContext.Provider value={props.agentSources ?? {}}>
          <ChildrenContext.Provider value={props.transcript.children}>
            <Transcript items={hasWorkspace ? props.transcript.items : []} queued={props.transcript.queued} empty={empty}
              notice={props.notice}
              find={find && match ? { query: find.query, index: match.index, inBody: match.inBody } : undefined} />
          </ChildrenContext.Provider>
        </AgentSourcesContext.Provider>
      </ChatActionsContext.Provider>
      {props.onStopAgent && (
        <AgentsStrip agents={backgroundAgents(props.transcript.items, props.transcript.children)} onStop={props.onStopAgent} />
      )}
      <TodoChecklist items={props.transcript.items} running={running} />
      <SlashMenu matches={slashed} active={Math.min(active, slashed.length - 1)} onPick={pick} />
      {asking && (
        <PromptArgsForm key={asking.name} command={asking}
          onSend={(text) => {
            setAsking(null);
            send(text);
          }}
          onCancel={() => {
            setAsking(null);
            composer.current?.focus();
          }} />
      )}
      {slashed.length === 0 && <MentionList options={shown} active={Math.min(active, shown.length - 1)} onPick={pickMention} />}
      {refusal && (
        <div className="composer-error" role="alert">
          @{refusal.mention}: {refusal.refused}
        </div>
      )}
      <MentionChips picked={picked} onRemove={(p) => setPicked((ps) => ps.filter((x) => x.mention !== p))} />
      {error && (
        <div className="composer-error" role="alert">
          {error}
        </div>
      )}
      <AttachmentChips list={attachments.list} onRemove={attachments.remove} onMarkSees={(m) => void attachments.markSees(m)} />
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          ref={composer}
          aria-label="Message"
          placeholder={
            hasWorkspace
              ? running
                ? "Message…  (sent when the current turn ends)"
                : "Message…  (Enter to send, Shift+Enter for a new line, /compact to compact)"
              : "Choose a folder first"
          }
          value={draft}
          disabled={!hasWorkspace}
          rows={2}
          onChange={(e) => setDraft(e.target.value)}
          onPaste={(e) => {
            const files = imageFiles(e.clipboardData).filter((f) => f.type.startsWith("image/"));
            if (files.length > 0) {
              e.preventDefault();
              attachments.add(files, true);
              return;
            }
            // WebKitGTK's paste event carries no clipboard image (nor its type): ask the async Clipboard API.
            const types = Array.from(e.clipboardData?.types ?? []);
            if (types.length === 0 || types.some((t) => t.startsWith("image/"))) {
              void pastedImage(types).then(
                (f) => f && attachments.add([f], true),
                (err) => types.length > 0 && attachments.fail(String(err instanceof Error ? err.message : err)),
              );
            }
          }}
          onKeyDown={(e) => {
            if (menu.length > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
              e.preventDefault();
              setActive((a) => (a + (e.key === "ArrowDown" ? 1 : menu.length - 1)) % menu.length);
              return;
            }
            if (slashed.length === 0 && shown.length > 0 && (e.key === "Tab" || e.key === "Enter")) {
              e.preventDefault();
              pickMention(shown[Math.min(active, shown.length - 1)]);
              return;
            }
            if (slashed.length > 0 && (e.key === "Tab" || (e.key === "Enter" && !slashed.some((m) => `/${m.name}` === draft)))) {
              e.preventDefault();
              pick(slashed[Math.min(active, slashed.length - 1)]);
              return;
            }
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <div className="composer-buttons">
          {compact && !running && (
            <button type="button" className="secondary" onClick={runCompact} disabled={!canCompact}
              title="Replace the older turns by a summary in what the model is sent (/compact); the conversation here keeps them">
              {compacting ? "Compacting…" : "Compact"}
            </button>
          )}
          {running && (
            <button type="button" className="danger" onClick={props.onCancel} title="Stop the running turn (Esc)">
              Stop
            </button>
          )}
          <input ref={picker} type="file" accept={IMAGE_TYPES.join(",")} multiple hidden aria-hidden="true" tabIndex={-1}
            onChange={(e) => {
              attachments.add(Array.from(e.currentTarget.files ?? []));
              e.currentTarget.value = "";
            }} />
          <button type="button" className="secondary" disabled={!hasWorkspace} onClick={() => picker.current?.click()}
            title="Attach images (or paste or drop them here)">
            Attach image
          </button>
          <button type="submit" className="primary" disabled={!hasWorkspace || (draft.trim() === "" && ready.length === 0) || reading}>
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
