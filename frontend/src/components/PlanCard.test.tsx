import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15, cachedTokens: 0 };

async function proposed() {
  const b = fakeBackend();
  render(<App backend={b} />);
  await screen.findByRole("textbox", { name: "Message" });
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  act(() => {
    b.emit("turn.started", { prompt: "add a health endpoint" });
    b.emit("turn.stopped", { reason: "completed", usage, plan: { callId: "c1", plan: "## Steps\n1. Add **/health**" } });
  });
  return { b, card: screen.getByRole("region", { name: "Proposed plan" }) };
}

describe("PlanCard", () => {
  it("shows the plan, takes focus, and approving switches the mode and starts the turn", async () => {
    const { b, card } = await proposed();
    expect(card.textContent).toContain("Add /health");
    expect(document.activeElement).toBe(card);
    fireEvent.click(within(card).getByRole("button", { name: "Approve and switch to safe" }));
    await waitFor(() => expect(b.approvePlan).toHaveBeenCalledWith("## Steps\n1. Add **/health**", "safe"));
    await waitFor(() => expect(within(card).queryByRole("button", { name: /Approve/ })).toBeNull());
    expect(card.textContent).toContain("approved");
  });

  it("Revise sends the note; Reject sets the plan aside without a turn", async () => {
    const { b, card } = await proposed();
    fireEvent.click(within(card).getByRole("button", { name: "Revise…" }));
    fireEvent.input(within(card).getByRole("textbox", { name: "What should change?" }), { target: { value: "add a test too" } });
    fireEvent.click(within(card).getByRole("button", { name: "Send revision" }));
    await waitFor(() => expect(b.revisePlan).toHaveBeenCalledWith("add a test too"));
    cleanup();
    const again = await proposed();
    fireEvent.click(within(again.card).getByRole("button", { name: "Reject" }));
    expect(again.card.textContent).toContain("rejected");
    expect(again.b.approvePlan).not.toHaveBeenCalled();
    expect(again.b.submit).not.toHaveBeenCalled();
  });
});
