import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";
import { hostOf } from "./LocalModels";

afterEach(cleanup);

function firstRun() {
  const b = fakeBackend({ needsSetup: true, model: "" });
  b.getSettings.mockResolvedValue({
    baseURL: "https://api.openai.com/v1", model: "", hasKey: false, theme: "system", api: "chat",
    sources: { baseURL: "default", apiKey: "", model: "", api: "default" }, price: { inputPerMTok: 0, outputPerMTok: 0 }, priceSource: "",
  });
  return b;
}

describe("LocalModels", () => {
  it("offers each server found on this machine and fills the base URL and model", async () => {
    const b = firstRun();
    const detect = vi.fn(async () => [
      { name: "Ollama", baseURL: "http://127.0.0.1:11434/v1", models: ["llama3.2", "qwen2.5-coder", "phi4"] },
      { name: "LM Studio", baseURL: "http://127.0.0.1:1234/v1", models: [] },
    ]);
    render(<App backend={b} localModels={detect} />);
    const url = (await screen.findByLabelText("Base URL")) as HTMLInputElement;
    await waitFor(() => expect(url.value).toBe("https://api.openai.com/v1"));
    fireEvent.click(await screen.findByRole("button", { name: "Use Ollama at 127.0.0.1:11434 — 3 models" }));
    expect(url.value).toBe("http://127.0.0.1:11434/v1");
    expect((screen.getByLabelText("Model") as HTMLInputElement).value).toBe("llama3.2");

    fireEvent.click(screen.getByRole("radio", { name: "qwen2.5-coder" }));
    expect((screen.getByLabelText("Model") as HTMLInputElement).value).toBe("qwen2.5-coder");

    fireEvent.click(screen.getByRole("button", { name: "Use LM Studio at 127.0.0.1:1234 — no models loaded" }));
    expect(url.value).toBe("http://127.0.0.1:1234/v1");
    expect(screen.getByText(/Load or pull a model in LM Studio/)).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Use Ollama at 127.0.0.1:11434 — 3 models" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({
      baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2" })));
    expect(detect).toHaveBeenCalledTimes(1);
  });

  it("offers nothing when no server answers, and only on first run", async () => {
    const detect = vi.fn(async () => []);
    render(<App backend={firstRun()} localModels={detect} />);
    await waitFor(() => expect(detect).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByText(/Looking for a model server/)).toBeNull());
    expect(screen.queryByRole("group", { name: "Model servers on this machine" })).toBeNull();
    cleanup();

    const b = fakeBackend();
    const detect2 = vi.fn(async () => []);
    render(<App backend={b} localModels={detect2} />);
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }));
    await screen.findByRole("heading", { name: "Settings" });
    expect(detect2).not.toHaveBeenCalled();
  });

  it("names the host of a base URL", () => {
    expect(hostOf("http://127.0.0.1:11434/v1")).toBe("127.0.0.1:11434");
    expect(hostOf("not a url")).toBe("not a url");
  });
});
