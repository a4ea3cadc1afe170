// The Changes view's bindings (Go: internal/gitview's Service): the
// workspace's git changes, staging and discarding by file and hunk, and
// committing. Every call is the user's own action: none passes the approval
// gate, which is for the model's calls.
import * as Git from "./wailsjs/go/gitview/Service";

export interface GitHunk {
  header: string;
  /** Names the hunk as shown: an operation on a hunk that changed since is refused. */
  id: string;
}

export interface GitFileDiff {
  path: string;
  /** A added, D deleted, M modified. */
  status: string;
  binary?: boolean;
  added: number;
  removed: number;
  hunks: GitHunk[];
  /** The file's whole diff (header and hunks). */
  diff: string;
}

export interface GitChanges {
  branch: string;
  head: string;
  upstream?: string;
  ahead: number;
  behind: number;
  staged: GitFileDiff[];
  unstaged: GitFileDiff[];
  untracked: string[];
  /** A worktree session's branch against the branch it came from (committed changes). */
  against?: { base: string; commits: string[]; files: GitFileDiff[] };
  /** Git ran without the repository's hooks and config (not trusted yet). */
  safe: boolean;
  top: string;
}

export interface GitSettings {
  trusted: boolean;
  files: string[];
  hash: string;
  refused?: string[];
}

export interface GitView {
  notRepo?: boolean;
  changes: GitChanges;
  settings: GitSettings;
  lastMessage: string;
  /** The workspace folder is gone (a worktree deleted behind the window's back), in words. */
  gone?: string;
}

export interface GitCommit {
  hash: string;
  subject: string;
  output?: string;
}

export interface WorktreeSession {
  name: string;
  path: string;
  branch: string;
  base: string;
  /** The folder was deleted behind git's back. */
  missing?: boolean;
}

export interface WorktreeSessions {
  main: string;
  /** The worktree session the window is in ("" in the main worktree). */
  current: string;
  list: WorktreeSession[];
  /** Untracked files copied into each new worktree (the setting). */
  copy: string[];
}

/** What discarding a worktree session would lose. */
export interface WorktreeEnding {
  commits: string[];
  uncommitted: string[];
}

export const gitBackend = {
  changes: (): Promise<GitView> => Git.GitChanges() as Promise<GitView>,
  stageFile: (path: string): Promise<void> => Git.GitStageFile(path),
  unstageFile: (path: string): Promise<void> => Git.GitUnstageFile(path),
  stageHunk: (path: string, id: string): Promise<void> => Git.GitStageHunk(path, id),
  unstageHunk: (path: string, id: string): Promise<void> => Git.GitUnstageHunk(path, id),
  /** Returns the undo unit that takes the discard back. */
  discardHunk: (path: string, id: string): Promise<string> => Git.GitDiscardHunk(path, id),
  discardFile: (path: string): Promise<string> => Git.GitDiscardFile(path),
  commit: (message: string, amend: boolean): Promise<GitCommit> => Git.GitCommit(message, amend) as Promise<GitCommit>,
  /** The model's draft of a message for what is staged: shown for editing, never committed by itself. */
  draftMessage: (): Promise<string> => Git.GitDraftMessage(),
  trustSettings: (hash: string): Promise<void> => Git.GitTrustSettings(hash),
  commitTrailer: (): Promise<string> => Git.GitCommitTrailer(),
  setCommitTrailer: (t: string): Promise<void> => Git.SetGitCommitTrailer(t),
  worktrees: (): Promise<WorktreeSessions> => Git.WorktreeSessions() as Promise<WorktreeSessions>,
  /** Makes a worktree session and opens it as the window's workspace. */
  newWorktree: (name: string): Promise<WorktreeSession> => Git.NewWorktreeSession(name) as Promise<WorktreeSession>,
  /** Opens a worktree session ("": the main worktree) as the window's workspace. */
  openWorktree: (name: string): Promise<void> => Git.OpenWorktreeSession(name),
  mergeWorktree: (): Promise<{ base: string; commits: string[] }> => Git.MergeWorktreeSession() as Promise<{ base: string; commits: string[] }>,
  /** Ends the worktree session the window is in; an unconfirmed discard returns what it would lose (null: done). */
  endWorktree: (discard: boolean, confirmed: boolean): Promise<WorktreeEnding | null> =>
    Git.EndWorktreeSession(discard, confirmed) as Promise<WorktreeEnding | null>,
  setWorktreeCopy: (files: string[]): Promise<void> => Git.SetWorktreeCopy(files),
};

export type GitBackend = typeof gitBackend;
