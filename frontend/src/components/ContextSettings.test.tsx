import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";

afterEach(cleanup);

const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15, cachedTokens: 0 };
const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const WINDOW = "Context window (tokens)";
const CLEAR = "Clear old tool output at (% of the window)";
const SUMMARY = "Summarise older turns at (% of the window)";
/** The text shown under a field: its note, or its error. */
const noteOf = (input: HTMLInputElement) => document.getElementById(input.getAttribute("aria-describedby")!)!.textContent;

/** Opens Settings from the header, at its Context section. */
function openContext() {
  fireEvent.click(screen.getByRole("button", { name: "Settings" }));
  fireEvent.click(screen.getByRole("tab", { name: "Context" }));
}

async function openSettings(context = { window: 32_768, microCompactAt: 60, compactAt: 0 }) {
  const b = fakeBackend();
  const saved = await b.getSettings();
  await b.saveSettings({ baseURL: saved.baseURL, model: saved.model, apiKey: "", clearKey: false, theme: "system", api: "chat", sendKey: false, context });
  b.saveSettings.mockClear();
  render(<App backend={b} />);
  await screen.findByRole("textbox", { name: "Message" });
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  return b;
}

describe("Context settings", () => {
  it("show the saved values, with the defaults as placeholders and where this session's window comes from", async () => {
    const b = await openSettings();
    act(() => {
      b.emit("turn.started", { prompt: "hello" });
      b.emit("turn.stopped", { reason: "completed", usage, context: { tokens: 2_000, window: 10_000, windowSource: "server" } });
    });
    openContext();
    await waitFor(() => expect(field(WINDOW).value).toBe("32768"));
    expect(field(CLEAR).value).toBe("60");
    expect(field(SUMMARY).value).toBe("");
    expect(field(SUMMARY).placeholder).toBe("85");
    expect(noteOf(field(WINDOW))).toContain("The model server's figure, or Gatehouse's table of known models, wins");
    expect(noteOf(field(WINDOW))).toContain("This session: 10,000 tokens, as the model server reports it.");
  });

  it("show a bad value at its field in words and send nothing until it is fixed; a good save sends the values", async () => {
    const b = await openSettings();
    openContext();
    await waitFor(() => expect(field(WINDOW).value).toBe("32768"));

    fireEvent.input(field(SUMMARY), { target: { value: "55" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(field(SUMMARY).getAttribute("aria-invalid")).toBe("true"));
    expect(noteOf(field(SUMMARY))).toBe("Summarising older turns must start above clearing old tool output (60%), which is tried first.");
    expect(document.activeElement).toBe(field(SUMMARY));
    expect(b.saveSettings).not.toHaveBeenCalled();

    // The default summary threshold (85%) is checked against a new clearing one too.
    fireEvent.input(field(SUMMARY), { target: { value: "" } });
    fireEvent.input(field(CLEAR), { target: { value: "90" } });
    expect(noteOf(field(SUMMARY))).toContain("above clearing old tool output (90%)");
    fireEvent.input(field(CLEAR), { target: { value: "10" } });
    expect(noteOf(field(CLEAR))).toBe("Clearing old tool output must start between 20% and 100% of the window, or be empty for the default.");
    expect(field(SUMMARY).getAttribute("aria-invalid")).toBeNull();

    fireEvent.input(field(WINDOW), { target: { value: "32" } });
    fireEvent.input(field(CLEAR), { target: { value: "50%" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(noteOf(field(WINDOW))).toBe("The context window must be between 1,000 and 10,000,000 tokens, or empty to detect it."));
    expect(document.activeElement).toBe(field(WINDOW));
    fireEvent.input(field(WINDOW), { target: { value: "32k" } });
    expect(noteOf(field(WINDOW))).toContain('"32k" is not a number of tokens');
    expect(b.saveSettings).not.toHaveBeenCalled();

    fireEvent.input(field(WINDOW), { target: { value: "65,536" } });
    fireEvent.input(field(SUMMARY), { target: { value: "75" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledTimes(1));
    const sent = b.saveSettings.mock.calls[0][0];
    expect(sent.context).toEqual({ window: 65_536, microCompactAt: 50, compactAt: 75 });
    // The rest of the form goes as before: no price (none typed), the key not sent elsewhere.
    expect(sent).toMatchObject({ baseURL: "http://127.0.0.1:1/v1", model: "fake-model", apiKey: "", sendKey: false });
    expect(sent.price).toBeUndefined();
    expect(sent.clearPrice).toBeUndefined();
    await screen.findByText("✓ Saved.");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await screen.findByRole("textbox", { name: "Message" });

    // Reopened: the saved values are back; emptied fields go back to detect and the defaults.
    openContext();
    await waitFor(() => expect(field(WINDOW).value).toBe("65536"));
    expect(field(CLEAR).value).toBe("50");
    for (const name of [WINDOW, CLEAR, SUMMARY]) fireEvent.input(field(name), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledTimes(2));
    expect(b.saveSettings.mock.calls[1][0].context).toEqual({ window: 0, microCompactAt: 0, compactAt: 0 });
  });

  it("are not on the first-run screen, whose save keeps the saved ones", async () => {
    const b = fakeBackend({ needsSetup: true });
    render(<App backend={b} />);
    await screen.findByRole("heading", { name: "Set up a model" });
    await waitFor(() => expect((screen.getByLabelText("Base URL") as HTMLInputElement).value).toBe("http://127.0.0.1:1/v1"));
    expect(screen.queryByLabelText(WINDOW)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledTimes(1));
    expect(b.saveSettings.mock.calls[0][0].context).toBeUndefined();
  });
});
