// Review by the model and export (Go: internal/gui's app_review.go): the
// reviewer agent run on a Changes-view target as a child of the open
// session, its findings refreshed against the files as they are now, and a
// session written to a file.
import { App } from "./bound.gen";
import type { ExportRequest, Finding, Report, Target } from "./protocol.gen";

export type ReviewFinding = Finding;
export type ReviewReport = Report;
export type ReviewTarget = Target;
export type SessionExport = ExportRequest;

export const reviewBackend = {
  /** Runs the reviewer on target; resolves once it finished, with the diff and its findings. */
  run: (target: ReviewTarget): Promise<ReviewReport> => App.ReviewChanges(target),
  /** The findings with those whose lines changed since marked outdated. */
  refresh: (findings: ReviewFinding[]): Promise<ReviewFinding[]> => App.ReviewRefresh(findings).then((f) => f ?? []),
  /** Writes a session to a file in the data folder; resolves with its path. */
  exportSession: (r: SessionExport): Promise<string> => App.ExportSession(r),
};

export type ReviewBackend = typeof reviewBackend;
