// The Changes view's bindings (Go: internal/gitview's Service): the
// workspace's git changes, staging and discarding by file and hunk, and
// committing. Every call is the user's own action: none passes the approval
// gate, which is for the model's calls.
import { Service as Git } from "./bound.gen";
import type { Changes, Commit, Ending, FileDiff, Hunk, Merged, Settings, View, Worktree, Worktrees } from "./protocol.gen";

export type GitHunk = Hunk;
export type GitFileDiff = FileDiff;
export type GitChanges = Changes;
export type GitSettings = Settings;
export type GitView = View;
export type GitCommit = Commit;
export type WorktreeSession = Worktree;
export type WorktreeSessions = Worktrees;
export type WorktreeEnding = Ending;

export const gitBackend = {
  changes: (): Promise<GitView> => Git.GitChanges(),
  stageFile: (path: string): Promise<void> => Git.GitStageFile(path),
  unstageFile: (path: string): Promise<void> => Git.GitUnstageFile(path),
  stageHunk: (path: string, id: string): Promise<void> => Git.GitStageHunk(path, id),
  unstageHunk: (path: string, id: string): Promise<void> => Git.GitUnstageHunk(path, id),
  /** Returns the undo unit that takes the discard back. */
  discardHunk: (path: string, id: string): Promise<string> => Git.GitDiscardHunk(path, id),
  discardFile: (path: string): Promise<string> => Git.GitDiscardFile(path),
  commit: (message: string, amend: boolean): Promise<GitCommit> => Git.GitCommit(message, amend),
  /** The model's draft of a message for what is staged: shown for editing, never committed by itself. */
  draftMessage: (): Promise<string> => Git.GitDraftMessage(),
  trustSettings: (hash: string): Promise<void> => Git.GitTrustSettings(hash),
  commitTrailer: (): Promise<string> => Git.GitCommitTrailer(),
  setCommitTrailer: (t: string): Promise<void> => Git.SetGitCommitTrailer(t),
  worktrees: (): Promise<WorktreeSessions> => Git.WorktreeSessions(),
  /** Makes a worktree session and opens it as the window's workspace. */
  newWorktree: (name: string): Promise<WorktreeSession> => Git.NewWorktreeSession(name),
  /** Opens a worktree session ("": the main worktree) as the window's workspace. */
  openWorktree: (name: string): Promise<void> => Git.OpenWorktreeSession(name),
  mergeWorktree: (): Promise<Merged> => Git.MergeWorktreeSession(),
  /** Ends the worktree session the window is in; an unconfirmed discard returns what it would lose (null: done). */
  endWorktree: (discard: boolean, confirmed: boolean): Promise<WorktreeEnding | null> =>
    Git.EndWorktreeSession(discard, confirmed),
  setWorktreeCopy: (files: string[]): Promise<void> => Git.SetWorktreeCopy(files),
};

export type GitBackend = typeof gitBackend;
