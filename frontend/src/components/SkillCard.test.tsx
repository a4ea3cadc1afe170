import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { TranscriptItem } from "../bridge";
import { giveLayout } from "../test/fakeBackend";
import { Transcript } from "./Transcript";
import { editableText } from "./skillCard";
import { findMatches } from "../transcript/search";

beforeAll(giveLayout);
afterEach(cleanup);

// The message internal/skills Catalog.UserPrompt sends for /pdf (its Go test
// TestUserPromptCarriesWhatTheCardShows pins the same form).
const chosen =
  "[The user loaded skill pdf for this message. Its folder is ~/.agents/skills/pdf, holding references/forms.md, scripts/fill.py. " +
  "Its allowed-tools (a suggestion only: every call still passes the approval gate): Bash(python:*) Read. Its instructions:]\n\n" +
  "# PDF\n\nUse scripts/fill.py.\n\n[End of skill pdf.]\n\nfill the form";

describe("SkillCard", () => {
  it("shows a skill chosen with /name as a card with its body folded and allowed-tools shown, not in the user's bubble", () => {
    const items: TranscriptItem[] = [{ kind: "user", id: "u1", turnId: "t1", text: chosen }];
    render(<Transcript items={items} queued={[]} empty={null} />);
    const card = screen.getByRole("group", { name: "skill pdf loaded" });
    expect(card.textContent).toContain("chosen by you");
    expect(card.textContent).toContain("allowed-tools (shown only, grants no approval): Bash(python:*) Read");
    const body = card.querySelector("details")!;
    expect(body.open).toBe(false);
    expect(body.textContent).toContain("Use scripts/fill.py.");
    expect(body.textContent).toContain("references/forms.md, scripts/fill.py");
    fireEvent.click(within(card).getByText(/^Instructions/));
    expect(body.open).toBe(true);
    const bubble = screen.getByRole("article", { name: "Your message" });
    expect(bubble.textContent).toContain("fill the form");
    expect(bubble.textContent).not.toContain("Use scripts/fill.py.");
    expect(bubble.textContent).not.toContain("The user loaded skill");
  });

  it("says a skill chosen again is loaded already, without its body", () => {
    const items: TranscriptItem[] = [
      { kind: "user", id: "u1", turnId: "t1", text: "[The user chose skill pdf again; it is loaded already (folder ~/.agents/skills/pdf).]\n\nonce more" },
    ];
    render(<Transcript items={items} queued={[]} empty={null} />);
    const card = screen.getByRole("group", { name: "skill pdf already loaded" });
    expect(card.querySelector("details")).toBeNull();
    expect(screen.getByRole("article", { name: "Your message" }).textContent).toContain("once more");
  });

  it("shows the model's skill call as the same card", () => {
    const items: TranscriptItem[] = [
      { kind: "user", id: "u1", turnId: "t1", text: "fill the form" },
      {
        kind: "tool", id: "c1", turnId: "t1", tool: "skill", args: { name: "pdf" }, isError: false, durationMs: 3,
        result: { skill: "pdf", folder: "~/.agents/skills/pdf", instructions: "Use scripts/fill.py.", files: ["references/forms.md"], allowedTools: "Read" },
      },
    ];
    render(<Transcript items={items} queued={[]} empty={null} />);
    const card = screen.getByRole("group", { name: "skill pdf loaded" });
    expect(card.textContent).toContain("loaded by the model");
    expect(card.textContent).toContain("allowed-tools (shown only, grants no approval): Read");
    expect(card.querySelector("details")!.open).toBe(false);
    expect(card.querySelector("details")!.textContent).toContain("Use scripts/fill.py.");
    expect(screen.getByRole("article", { name: "Your message" }).textContent).toContain("fill the form");
  });

  it("leaves a failed skill call and an ordinary message without a card", () => {
    const items: TranscriptItem[] = [
      { kind: "user", id: "u1", turnId: "t1", text: "[The user loaded skill x for this message] but not really" },
      { kind: "tool", id: "c1", turnId: "t1", tool: "skill", args: { name: "nope" }, isError: true, durationMs: 1, result: { error: "no skill" } },
    ];
    render(<Transcript items={items} queued={[]} empty={null} />);
    expect(screen.queryByRole("group", { name: /^skill .* loaded$/ })).toBeNull();
    expect(screen.getByRole("article", { name: "Your message" }).textContent).toContain("but not really");
  });

  it("gives Edit the /name and the user's text back, not the skill's body", () => {
    expect(editableText(chosen)).toBe("/pdf fill the form");
    expect(editableText("[The user chose skill pdf again; it is loaded already (folder ~/.agents/skills/pdf).]\n\n")).toBe("/pdf");
    expect(editableText("plain")).toBe("plain");
  });

  it("Find reaches a chosen skill's folded instructions and unfolds its card", () => {
    const items: TranscriptItem[] = [{ kind: "user", id: "u1", turnId: "t1", text: chosen }];
    expect(findMatches(items, "fill the form")).toEqual([{ index: 0, inBody: false }]);
    expect(findMatches(items, "scripts/fill.py")).toEqual([{ index: 0, inBody: true }]);
    expect(findMatches(items, "End of skill")).toEqual([]);
    render(<Transcript items={items} queued={[]} empty={null} find={{ query: "scripts/fill.py", index: 0, inBody: true }} />);
    expect(screen.getByRole("group", { name: "skill pdf loaded" }).querySelector("details")!.open).toBe(true);
  });
});
