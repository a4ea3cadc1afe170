import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";

afterEach(cleanup);

describe("Settings", () => {
  it("is the first-run screen; tests the connection and saves", async () => {
    const b = fakeBackend({ needsSetup: true, model: "" });
    b.getSettings.mockResolvedValue({
      baseURL: "https://api.openai.com/v1", model: "", hasKey: false, theme: "system",
      sources: { baseURL: "default", apiKey: "", model: "" },
    });
    render(<App backend={b} />);
    expect(await screen.findByRole("heading", { name: "Set up a model" })).toBeTruthy();
    const url = screen.getByLabelText("Base URL") as HTMLInputElement;
    await waitFor(() => expect(url.value).toBe("https://api.openai.com/v1"));
    fireEvent.change(url, { target: { value: "http://127.0.0.1:9/v1" } });
    fireEvent.change(screen.getByLabelText("API key"), { target: { value: "sk-1" } });
    fireEvent.change(screen.getByLabelText("Model"), { target: { value: "m1" } });
    expect((screen.getByLabelText("API key") as HTMLInputElement).type).toBe("password");

    b.testConnection.mockResolvedValueOnce({ status: "unreachable", message: "Could not reach the model server." });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Unreachable: Could not reach the model server."));
    expect(b.testConnection).toHaveBeenCalledWith(expect.objectContaining({ baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-1", model: "m1" }));

    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Reachable: Connected."));

    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ model: "m1", apiKey: "sk-1" })));
    expect(await screen.findByRole("textbox", { name: "Message" })).toBeTruthy();
  });

  it("opens from the header and says where the key comes from", async () => {
    const b = fakeBackend();
    b.getSettings.mockResolvedValue({
      baseURL: "http://x/v1", model: "m", hasKey: true, theme: "system",
      sources: { baseURL: "env", apiKey: "env", model: "saved" },
    });
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeTruthy();
    expect(await screen.findByText(/A key comes from the environment/)).toBeTruthy();
    expect(screen.getByText(/From the environment \(OPENAI_BASE_URL\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(await screen.findByRole("textbox", { name: "Message" })).toBeTruthy();
  });

  it("shows a saved key without revealing it and can remove it", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    expect(await screen.findByText("A key is saved. Leave this empty to keep it.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Remove saved key" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ clearKey: true, apiKey: "" })));
  });
});
