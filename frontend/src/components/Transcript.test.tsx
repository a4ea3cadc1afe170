import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import type { TranscriptItem } from "../bridge";
import { giveLayout } from "../test/fakeBackend";
import { Transcript } from "./Transcript";

beforeAll(giveLayout);
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

  it("shows the empty state when there is nothing yet", () => {
    render(<Transcript items={[]} queued={[]} empty={<p>Ask something</p>} />);
    expect(screen.getByText("Ask something")).toBeTruthy();
  });
});
