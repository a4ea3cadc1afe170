import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ExportPage, type ExportData } from "./ExportPage";

afterEach(cleanup);

const data: ExportData = {
  meta: { id: "s1", title: "fix the build", workspace: "/w", spent: "120 tokens in, 20 out · $0.0100" },
  turns: [
    {
      n: 1,
      items: [
        { kind: "user", id: "t1", turnId: "t1", text: "run the tests", images: [{ id: "img1", mime: "image/png", name: "shot.png", width: 1, height: 1, bytes: 8, origWidth: 1, origHeight: 1, origBytes: 8 }] },
        {
          kind: "tool", id: "c1", turnId: "t1", tool: "bash", args: { action: "exec", command: "npm test" },
          result: { exitCode: 0, stdout: "ok 1 - builds", stderr: "" }, approval: { by: "user" },
          hooks: [{ name: "./guard.sh", event: "PreToolUse", source: "user", verdict: "deny", decision: "deny", reason: "no network", exitCode: 2, durationMs: 4 }],
        },
        { kind: "stop", turnId: "t1", reason: "completed", usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120, cachedTokens: 0 }, cost: 0.01 },
      ],
    },
    { n: 2, items: [{ kind: "user", id: "t2", turnId: "t2", text: "again" }] },
  ],
  decisions: { c1: "approved by the user (session)" },
  images: { img1: "data:image/png;base64,iVBORw0KGgo=" },
};

describe("ExportPage", () => {
  it("draws each turn with the window's cards, calls folded, who decided each and the hooks that ran", async () => {
    render(<ExportPage data={data} />);
    expect(screen.getByRole("heading", { name: "fix the build" })).toBeTruthy();
    expect(screen.getByText(/spent 120 tokens in, 20 out · \$0\.0100/)).toBeTruthy();
    expect(screen.getByRole("region", { name: "Turn 2" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "bash npm test, done" })).toBeTruthy();
    expect(screen.getByText("approved by the user (session)")).toBeTruthy();
    expect(screen.getByText(/no network/)).toBeTruthy(); // a hook that denied is shown unfolded
    expect(screen.queryByText("ok 1 - builds")).toBeNull();
    await waitFor(() => expect((screen.getByAltText("Thumbnail of shot.png") as HTMLImageElement).src).toMatch(/^data:image\/png/));

    fireEvent.click(screen.getByRole("button", { name: "Unfold every call" }));
    expect(screen.getByText("ok 1 - builds")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Fold every call" }));
    expect(screen.queryByText("ok 1 - builds")).toBeNull();
  });

  it("starts unfolded when asked (the page's #unfold)", () => {
    render(<ExportPage data={data} unfolded />);
    expect(screen.getByText("ok 1 - builds")).toBeTruthy();
  });
});
