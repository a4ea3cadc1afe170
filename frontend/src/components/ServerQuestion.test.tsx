import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

const question = {
  questionId: "mcp-question-1", callId: "c1", server: "tickets", workspace: true, message: "Which ticket?",
  fields: [
    { name: "id", title: "Ticket", type: "integer", required: true, max: 99 },
    { name: "prio", type: "enum", options: [{ value: "lo", title: "Low" }, { value: "hi", title: "High" }], default: "lo" },
    { name: "urgent", type: "boolean" },
  ],
};

async function asked() {
  const b = fakeBackend();
  render(<App backend={b} />);
  await screen.findByRole("textbox", { name: "Message" });
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  act(() => {
    b.emit("turn.started", { prompt: "file it" });
    b.emit("tool.started", { callId: "c1", tool: "mcp__tickets__file", args: {} });
    b.emit("question.asked", question);
  });
  return { b, dialog: await screen.findByRole("dialog", { name: /MCP server tickets \(from the workspace\) asks/ }) };
}

describe("ServerQuestionDialog", () => {
  it("names the server, asks the form's fields and is answered by keyboard", async () => {
    const { b, dialog } = await asked();
    expect(dialog.textContent).toContain("Which ticket?");
    const id = within(dialog).getByLabelText("Ticket *");
    expect(document.activeElement).toBe(id);
    fireEvent.input(id, { target: { value: "42" } });
    fireEvent.change(within(dialog).getByLabelText("prio"), { target: { value: "hi" } });
    fireEvent.submit(dialog);
    await waitFor(() => expect(b.answerServerQuestion).toHaveBeenCalledWith("mcp-question-1", "accept", { id: 42, prio: "hi", urgent: false }));
    act(() => b.emit("question.resolved", { questionId: "mcp-question-1", action: "accept" }));
    expect(screen.queryByRole("dialog", { name: /MCP server tickets/ })).toBeNull();
  });

  it("cancels on Escape and declines on its button", async () => {
    const { b, dialog } = await asked();
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(b.answerServerQuestion).toHaveBeenCalledWith("mcp-question-1", "cancel", {}));
    cleanup();
    const again = await asked();
    fireEvent.click(within(again.dialog).getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(again.b.answerServerQuestion).toHaveBeenCalledWith("mcp-question-1", "decline", {}));
  });
});
