// Find in the transcript: searches the items (not the DOM, which holds only
// the rows near the viewport), so a match in a row scrolled away, or in a
// folded tool card's output, is found too.
import { mcpWaitingWords } from "../components/McpWaitingMarker";
import type { TranscriptItem } from "../bridge";
import { fileDiffs, pretty, toolError, toolSummary, toolTarget } from "../components/toolSummary";
import { stopWords } from "../components/TurnMarker";
import { userSkill } from "../components/skillCard";
import { undoWords, unitLabel } from "../undo/selection";

/** A matching item: where it is, and whether the match is only in a tool card's folded body. */
export interface Match {
  index: number;
  inBody: boolean;
}

/** The text of an item as its row shows it when folded, and what unfolding shows. */
function texts(it: TranscriptItem): { line: string; body: string } {
  switch (it.kind) {
    case "user": {
      // A /name message shows its skill's card, the instructions folded in it.
      const sk = userSkill(it.text ?? "");
      if (sk) return { line: `skill ${sk.load.skill} loaded\n${sk.load.allowedTools ?? ""}\n${sk.text}`, body: sk.load.instructions ?? "" };
      return { line: it.text ?? "", body: "" };
    }
    case "assistant":
      return { line: it.text ?? "", body: "" };
    case "stop":
      return { line: `${stopWords(it)} ${it.error ?? ""}`, body: "" };
    case "tool": {
      const tool = it.tool ?? "";
      const line = [tool, toolTarget(tool, it.args), it.running ? "" : toolSummary(tool, it.result), toolError(it)].join("\n");
      const body = [pretty(it.args), it.running ? "" : pretty(it.result), ...fileDiffs(it).map((d) => d.diff)].join("\n");
      return { line, body };
    }
    case "compaction":
      // Its summary only retells the turns above it, which are searched themselves.
      return { line: "", body: "" };
    case "undo":
      return { line: it.undo ? undoWords(it.undo, unitLabel) : "", body: "" };
    case "mcp_waiting":
      return { line: mcpWaitingWords(it.servers ?? []), body: "" };
    case "team_message":
      return { line: it.message ? `${it.message.from} → ${it.message.to}\n${it.message.text}` : "", body: "" };
  }
}

/** The items that contain query (case-insensitive), in order; none for an empty query. */
export function findMatches(items: readonly TranscriptItem[], query: string): Match[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out: Match[] = [];
  items.forEach((it, index) => {
    const t = texts(it);
    if (t.line.toLowerCase().includes(q)) out.push({ index, inBody: false });
    else if (t.body.toLowerCase().includes(q)) out.push({ index, inBody: true });
  });
  return out;
}
