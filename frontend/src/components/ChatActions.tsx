import { createContext, useContext } from "react";
import type { UndoActions } from "../undo/useUndo";

/** What items deep in the transcript may ask of the app. */
export interface ChatActions {
  openURL: (url: string) => void;
  openSettings: () => void;
  /** Starts a new session; absent when sessions cannot be switched. */
  newSession?: () => void;
  /** Review and undo what turns changed; absent without an undo backend. */
  undo?: UndoActions;
}

export const ChatActionsContext = createContext<ChatActions>({ openURL: () => {}, openSettings: () => {} });

export const useChatActions = () => useContext(ChatActionsContext);
