import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";

afterEach(cleanup);

describe("Settings", () => {
  it("is the first-run screen; tests the connection and saves", async () => {
    const b = fakeBackend({ needsSetup: true, model: "" });
    b.getSettings.mockResolvedValue({
      baseURL: "https://api.openai.com/v1", model: "", hasKey: false, theme: "system", api: "chat",
      sources: { baseURL: "default", apiKey: "", model: "", api: "default" }, price: { inputPerMTok: 0, outputPerMTok: 0 }, priceSource: "",
    });
    render(<App backend={b} />);
    expect(await screen.findByRole("heading", { name: "Set up a model" })).toBeTruthy();
    const url = screen.getByLabelText("Base URL") as HTMLInputElement;
    await waitFor(() => expect(url.value).toBe("https://api.openai.com/v1"));
    fireEvent.input(url, { target: { value: "http://127.0.0.1:9/v1" } });
    fireEvent.input(screen.getByLabelText("API key"), { target: { value: "sk-1" } });
    fireEvent.input(screen.getByLabelText("Model"), { target: { value: "m1" } });
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
      baseURL: "http://x/v1", model: "m", hasKey: true, theme: "system", api: "chat",
      sources: { baseURL: "env", apiKey: "env", model: "saved", api: "default" }, price: { inputPerMTok: 0, outputPerMTok: 0 }, priceSource: "",
    });
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeTruthy();
    expect(await screen.findByText(/A key comes from the environment/)).toBeTruthy();
    expect(screen.getByText(/From the environment \(OPENAI_BASE_URL\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(await screen.findByRole("textbox", { name: "Message" })).toBeTruthy();
  });

  it("tests another server without the saved key unless the user types one or confirms sending it", async () => {
    const b = fakeBackend(); // a key is saved for http://127.0.0.1:1/v1
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    const url = (await screen.findByLabelText("Base URL")) as HTMLInputElement;
    await waitFor(() => expect(url.value).toBe("http://127.0.0.1:1/v1"));
    const confirm = () => screen.queryByRole("checkbox", { name: "Send the saved key to this server too" }) as HTMLInputElement | null;
    expect(confirm()).toBeNull(); // its own server

    fireEvent.input(url, { target: { value: "https://elsewhere.example/v1" } });
    expect(confirm()?.checked).toBe(false);
    expect(screen.getByText(/Your key is kept for/).textContent).toContain("http://127.0.0.1:1/v1");
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(b.testConnection).toHaveBeenLastCalledWith(expect.objectContaining({ baseURL: "https://elsewhere.example/v1", apiKey: "", sendKey: false })));

    fireEvent.click(confirm()!);
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(b.testConnection).toHaveBeenLastCalledWith(expect.objectContaining({ baseURL: "https://elsewhere.example/v1", sendKey: true })));

    fireEvent.input(screen.getByLabelText("API key"), { target: { value: "sk-other" } });
    expect(confirm()).toBeNull(); // a typed key goes where it is typed for
    fireEvent.input(screen.getByLabelText("API key"), { target: { value: "" } });
    fireEvent.input(url, { target: { value: "HTTP://127.0.0.1:1/v1/" } });
    expect(confirm()).toBeNull(); // the same server, spelled otherwise

    // Saving another server keeps the saved key for it only when confirmed.
    fireEvent.input(url, { target: { value: "https://elsewhere.example/v1" } });
    fireEvent.click(confirm()!);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ baseURL: "https://elsewhere.example/v1", apiKey: "", sendKey: true })));
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

  it("chooses the API, tests with it and saves it with the rest", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    const api = (await screen.findByLabelText("API")) as HTMLSelectElement;
    await waitFor(() => expect(api.value).toBe("chat"));
    expect([...api.options].map((o) => o.textContent)).toEqual(["Chat Completions", "Responses"]);
    expect(screen.getByText(/every OpenAI-compatible server/)).toBeTruthy();

    fireEvent.change(api, { target: { value: "responses" } });
    expect(screen.getByText(/OpenAI's Responses API/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(b.testConnection).toHaveBeenCalledWith(expect.objectContaining({ api: "responses" })));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ api: "responses", model: "fake-model" })));
  });

  it("says when the environment chooses the API", async () => {
    const b = fakeBackend();
    b.getSettings.mockResolvedValue({
      baseURL: "http://x/v1", model: "m", hasKey: true, theme: "system", api: "responses",
      sources: { baseURL: "saved", apiKey: "saved", model: "saved", api: "env" }, price: { inputPerMTok: 0, outputPerMTok: 0 }, priceSource: "",
    });
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    await waitFor(() => expect((screen.getByLabelText("API") as HTMLSelectElement).value).toBe("responses"));
    expect(screen.getByText(/From the environment \(GATEHOUSE_API\)/)).toBeTruthy();
  });
});
