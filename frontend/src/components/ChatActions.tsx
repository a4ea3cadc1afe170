import { createContext, useContext } from "react";

/** What items deep in the transcript may ask of the app. */
export interface ChatActions {
  openURL: (url: string) => void;
  openSettings: () => void;
  /** Starts a new session; absent when sessions cannot be switched. */
  newSession?: () => void;
  /** Compacts the conversation now (button, /compact); rejects with a reason in words. */
  compact?: () => Promise<void>;
  /** Undoes the last compaction before the next turn. */
  undoCompact?: () => Promise<void>;
}

export const ChatActionsContext = createContext<ChatActions>({ openURL: () => {}, openSettings: () => {} });

export const useChatActions = () => useContext(ChatActionsContext);
