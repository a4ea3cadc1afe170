import { createContext, useContext } from "react";
import type { TurnPrices } from "./cost";
import type { BudgetLimit, McpResourceRead } from "../bridge";
import type { UndoActions } from "../undo/useUndo";
import type { SectionId } from "./settings/sections";

/** What items deep in the transcript may ask of the app. */
export interface ChatActions {
  openURL: (url: string) => void;
  /** Opens Settings at a section ("why" links: the dialog's Sandbox line opens "sandbox"). */
  openSettings: (section?: SectionId) => void;
  /** Puts text on the system clipboard; rejects with a sentence when it cannot. */
  copy: (text: string) => Promise<void>;
  /** Opens the session rules at rule id; absent when there are no rules to show. */
  showRule?: (id: string) => void;
  /** Sends the last turn's prompt again; absent while a turn runs or before the first. */
  retry?: () => void;
  /** Puts the last message in the composer to edit and send again; absent while a turn runs. */
  editLast?: () => void;
  /** The prices of the models the turns ran on, for what each cost; a model absent or of source "" has none known. */
  prices?: TurnPrices;
  /** Starts a new session; absent when sessions cannot be switched. */
  newSession?: () => void;
  /** Compacts the conversation now (button, /compact); rejects with a reason in words. */
  compact?: () => Promise<void>;
  /** Undoes the last compaction before the next turn. */
  undoCompact?: () => Promise<void>;
  /** Answers a plan the model proposed (plan mode); absent when plans cannot be answered. */
  plan?: PlanActions;
  /** Answers the model's ask_user question of a call; rejects with the reason (not a choice, answered already). */
  answer?: (callId: string, answer: string) => Promise<void>;
  /** Lets the session reach a domain the network proxy refused; absent when the sandbox cannot be set here. */
  allowDomain?: (domain: string) => Promise<void>;
  /** Adds a domain the network refused to Settings → Network's allow-list, for good; absent when the sandbox cannot be set here. */
  allowDomainAlways?: (domain: string) => Promise<void>;
  /** Raises a budget limit that stopped the last turn, for this session, and continues; absent when it cannot. */
  raiseBudget?: (limit: BudgetLimit) => Promise<void>;
  /** Reads an MCP server's resource a tool card links (text, a picture or a note); rejects with the reason. */
  readResource?: (server: string, uri: string) => Promise<McpResourceRead>;
  /** Review and undo what turns changed; absent without an undo backend. */
  undo?: UndoActions;
  /** Has the reviewer review what turn turnId changed, in the Review view; absent when review is not offered. */
  reviewTurn?: (turnId: string) => void;
}

/** The answers to a proposed plan: approve into a mode, or revise with a note; both start a turn. */
export interface PlanActions {
  approve: (plan: string, mode: "safe" | "auto" | "manual") => Promise<void>;
  revise: (note: string) => Promise<void>;
}

const pageClipboard = async (text: string) => {
  if (!navigator.clipboard?.writeText) throw new Error("No clipboard is available here.");
  await navigator.clipboard.writeText(text);
};

export const ChatActionsContext = createContext<ChatActions>({ openURL: () => {}, openSettings: () => {}, copy: pageClipboard });

export const useChatActions = () => useContext(ChatActionsContext);
