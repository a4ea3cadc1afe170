import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

async function asked(args: unknown) {
  const b = fakeBackend();
  render(<App backend={b} />);
  await screen.findByRole("textbox", { name: "Message" });
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  act(() => {
    b.emit("turn.started", { prompt: "serve it" });
    b.emit("tool.started", { callId: "q1", tool: "ask_user", args });
  });
  return { b, card: screen.getByRole("region", { name: "Question from the agent" }) };
}

describe("QuestionCard", () => {
  it("offers the choices as buttons; a click answers the call", async () => {
    const { b, card } = await asked({ question: "Which port?", choices: ["8080", "9090", "7000"] });
    expect(card.textContent).toContain("Which port?");
    expect(document.activeElement).toBe(card);
    fireEvent.click(within(card).getByRole("button", { name: "9090" }));
    await waitFor(() => expect(b.answerQuestion).toHaveBeenCalledWith("q1", "9090"));
    act(() => b.emit("tool.finished", { callId: "q1", tool: "ask_user", result: { answer: "9090" }, isError: false, durationMs: 5 }));
    expect(screen.queryByRole("region", { name: "Question from the agent" })).toBeNull();
  });

  it("takes a written answer without choices", async () => {
    const { b, card } = await asked({ question: "What name?" });
    fireEvent.input(within(card).getByRole("textbox", { name: "Your answer" }), { target: { value: "health" } });
    fireEvent.click(within(card).getByRole("button", { name: "Answer" }));
    await waitFor(() => expect(b.answerQuestion).toHaveBeenCalledWith("q1", "health"));
  });
});
