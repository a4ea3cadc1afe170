// The rows the diff view draws, from unified diff text parsed by diff2html.
// Pure functions, so the view can virtualise long diffs and tests can check
// the pairing without a DOM.
import { parse } from "diff2html/lib-esm/diff-parser";
import { LineType } from "diff2html/lib-esm/types";

export type LineKind = "add" | "del" | "ctx";

export interface DiffLine {
  kind: LineKind;
  /** The line number in the old file (del, ctx). */
  old?: number;
  /** The line number in the new file (add, ctx). */
  new?: number;
  /** The line without its +/−/space marker. */
  text: string;
}

/** A file's name row (only when the diff holds more than one file). */
export interface FileRow { type: "file"; name: string }
/** A "@@" row; block counts the @@ chunks of the whole diff from 0. */
export interface HunkRow { type: "hunk"; block: number; header: string }
export interface LineRow { type: "line"; line: DiffLine }
/** Side by side: an old line beside a new one; either may be missing. */
export interface PairRow { type: "pair"; left?: DiffLine; right?: DiffLine }

export type InlineRow = FileRow | HunkRow | LineRow;
export type SplitRow = FileRow | HunkRow | PairRow;

export interface ParsedDiff {
  /** The file names (new name, or old for a deletion). */
  files: string[];
  inline: InlineRow[];
  /** Built on first use: a reader who never switches pays nothing. */
  split: () => SplitRow[];
}

function lineOf(type: LineType, content: string, oldNo?: number, newNo?: number): DiffLine {
  const kind: LineKind = type === LineType.INSERT ? "add" : type === LineType.DELETE ? "del" : "ctx";
  return { kind, old: oldNo, new: newNo, text: content.slice(1) };
}

/** Pairs a run of deleted lines with the added lines that follow it, line by line. */
export function toSplit(rows: readonly InlineRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) out.push({ type: "pair", left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const r of rows) {
    if (r.type !== "line") {
      flush();
      out.push(r);
      continue;
    }
    const l = r.line;
    if (l.kind === "del") {
      if (adds.length) flush();
      dels.push(l);
    } else if (l.kind === "add") adds.push(l);
    else {
      flush();
      out.push({ type: "pair", left: l, right: l });
    }
  }
  flush();
  return out;
}

/** Parses unified diff text (one or more files; headers optional) into rows. */
export function parseDiff(diff: string): ParsedDiff {
  // diff2html wants file headers; a bare "@@" chunk gets neutral ones.
  const text = /^(---|diff )/m.test(diff) ? diff : `--- a/file\n+++ b/file\n${diff}`;
  const parsed = parse(text);
  const many = parsed.length > 1;
  const inline: InlineRow[] = [];
  const files: string[] = [];
  let block = 0;
  for (const f of parsed) {
    const name = f.newName === "/dev/null" ? f.oldName : f.newName;
    files.push(name);
    if (many) inline.push({ type: "file", name });
    for (const b of f.blocks) {
      inline.push({ type: "hunk", block: block++, header: b.header });
      for (const l of b.lines) inline.push({ type: "line", line: lineOf(l.type, l.content, l.oldNumber, l.newNumber) });
    }
  }
  let split: SplitRow[] | null = null;
  return { files, inline, split: () => (split ??= toSplit(inline)) };
}

/** "@@ -12,4 +12,5 @@ func x" → "12": where the chunk starts in the new file. */
export function hunkStart(header: string): string {
  const m = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(header);
  return m ? m[1] : "";
}
