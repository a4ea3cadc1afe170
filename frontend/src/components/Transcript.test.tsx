import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ChatActionsContext } from "./ChatActions";
import type { TranscriptItem } from "../bridge";
import { giveLayout } from "../test/fakeBackend";
import { Transcript } from "./Transcript";

beforeAll(giveLayout);

/** Two turns, each a message and its end. */
const twoTurns: TranscriptItem[] = [
  { kind: "user", id: "u1", turnId: "t1", text: "first" },
  { kind: "stop", id: "s1", turnId: "t1", reason: "completed" },
  { kind: "user", id: "u2", turnId: "t2", text: "second" },
  { kind: "stop", id: "s2", turnId: "t2", reason: "completed" },
];
afterEach(cleanup);

describe("Transcript", () => {
  it("keeps a long session cheap: only rows near the viewport are in the DOM", () => {
    const items: TranscriptItem[] = [];
    for (let i = 0; i < 2000; i++) {
      items.push({ kind: "user", id: `t${i}`, turnId: `t${i}`, text: `question ${i}` });
      items.push({ kind: "assistant", id: `m${i}`, turnId: `t${i}`, text: `answer **${i}**` });
    }
    const { container } = render(<Transcript items={items} queued={[]} empty={null} />);
    const rows = container.querySelectorAll(".row");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByText("question 0")).toBeTruthy(); // jsdom does not scroll: the top rows
    expect(screen.queryByText("question 1999")).toBeNull();
  });

  it("says in the conversation which MCP servers a turn runs without", () => {
    const items: TranscriptItem[] = [
      { kind: "user", id: "t1", turnId: "t1", text: "look it up" },
      { kind: "mcp_waiting", turnId: "t1", servers: ["github"] },
      { kind: "user", id: "t2", turnId: "t2", text: "again" },
      { kind: "mcp_waiting", turnId: "t2", servers: ["docs", "github"] },
    ];
    render(<Transcript items={items} queued={[]} empty={null} />);
    const notes = screen.getAllByRole("note", { name: "MCP servers starting" }).map((n) => n.textContent);
    expect(notes).toEqual([
      "⧗ MCP server github was still starting: this turn runs without its tools until it is ready.",
      "⧗ MCP servers docs, github were still starting: this turn runs without their tools until they are ready.",
    ]);
    expect(screen.getAllByRole("article", { name: "Your message" })).toHaveLength(2);
  });

  it("shows the empty state when there is nothing yet", () => {
    render(<Transcript items={[]} queued={[]} empty={<p>Ask something</p>} />);
    expect(screen.getByText("Ask something")).toBeTruthy();
  });

  it("with the window's notice above, still offers Edit and Retry on the last turn's own rows", () => {
    const items = twoTurns;
    const noop = () => {};
    render(
      <ChatActionsContext.Provider value={{ openURL: noop, openSettings: noop, copy: async () => {}, retry: noop, editLast: noop }}>
        <Transcript items={items} queued={[]} empty={null} notice="Started in auto mode" />
      </ChatActionsContext.Provider>,
    );
    expect(screen.getByRole("note", { name: "Notice" }).textContent).toContain("Started in auto mode");
    const edit = screen.getAllByRole("button", { name: "Edit" });
    expect(edit).toHaveLength(1);
    expect(screen.getAllByRole("article", { name: "Your message" })[1].contains(edit[0])).toBe(true);
    const retry = screen.getAllByRole("button", { name: "Retry" });
    expect(retry).toHaveLength(1);
    // On the last turn's end, after its message, not on the first turn's.
    expect(screen.getByText("second").compareDocumentPosition(retry[0]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("offers Review… on the header of a turn that changed files, which reviews that turn", () => {
    const items = twoTurns;
    const noop = () => {};
    const asked: string[] = [];
    const undo = { units: new Set(["t2"]), open: noop, revert: async () => ({ unit: "", of: "", restored: [] }) };
    render(
      <ChatActionsContext.Provider value={{ openURL: noop, openSettings: noop, copy: async () => {}, undo, reviewTurn: (id) => asked.push(id) }}>
        <Transcript items={items} queued={[]} empty={null} />
      </ChatActionsContext.Provider>,
    );
    const review = screen.getAllByRole("button", { name: "Review…" });
    expect(review).toHaveLength(1);
    expect(screen.getAllByRole("article", { name: "Your message" })[1].contains(review[0])).toBe(true);
    fireEvent.click(review[0]);
    expect(asked).toEqual(["t2"]);
  });
});
