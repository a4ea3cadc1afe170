import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { LanguagesBackend, LanguageServersView } from "../../bridge/languages";
import { LanguagesSection } from "./LanguagesSection";
import type { SettingsDeps } from "./sections";

afterEach(cleanup);

const view: LanguageServersView = { servers: [
  { name: "gopls", builtin: true, configured: false, config: { command: "gopls", filePatterns: ["*.go"] }, path: "/usr/bin/gopls", state: "ready", restarts: 0, confined: true },
  { name: "pyright", builtin: true, configured: false, config: { command: "pyright-langserver", args: ["--stdio"], filePatterns: ["*.py"] },
    path: "/usr/bin/pyright-langserver", state: "crashed", error: "exit status 1: Traceback: boom", restarts: 2, confined: true },
  { name: "typescript", builtin: true, configured: false, config: { command: "typescript-language-server", filePatterns: ["*.ts"] }, state: "not found", restarts: 0, confined: false },
] };

function section(api: LanguagesBackend) {
  const deps = { backend: {} as SettingsDeps["backend"], languages: api } as SettingsDeps;
  return render(<LanguagesSection deps={deps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
}

describe("Settings → Language servers", () => {
  it("shows each server's state: running, crashed with its stderr, not found", async () => {
    section({ list: vi.fn(async () => view), save: vi.fn(), remove: vi.fn() });
    const list = await screen.findByRole("list", { name: "Language servers" });
    const item = (name: string) => within(list).getAllByRole("listitem").find((li) => li.getAttribute("data-server") === name)!;
    expect(item("gopls").textContent).toContain("running");
    expect(item("pyright").textContent).toContain("crashed");
    expect(item("pyright").textContent).toContain("Traceback: boom");
    expect(item("pyright").textContent).toContain("restarted 2×");
    expect(item("typescript").textContent).toContain("not found on PATH");
  });

  it("checks a new entry before saving it, saves it in the lsp block's shape, and shows the backend's refusal", async () => {
    const saved: LanguageServersView = { servers: [...view.servers!, { name: "rust", builtin: false, configured: true,
      config: { command: "rust-analyzer", filePatterns: ["*.rs"] }, state: "not found", restarts: 0, confined: false }] };
    const save = vi.fn(async () => saved);
    section({ list: vi.fn(async () => view), save, remove: vi.fn() });
    fireEvent.click(await screen.findByRole("button", { name: "Add a language server" }));
    const form = screen.getByRole("form", { name: "Add a language server" });
    const input = (label: string) => within(form).getByRole("textbox", { name: label });
    fireEvent.input(input("Name"), { target: { value: "rust" } });
    expect(within(form).getByRole("alert").textContent).toContain("Command");
    expect(within(form).getByRole<HTMLButtonElement>("button", { name: "Save" }).disabled).toBe(true);
    fireEvent.input(input("Command"), { target: { value: "rust-analyzer" } });
    expect(within(form).getByRole("alert").textContent).toContain("File patterns");
    fireEvent.input(input("File patterns"), { target: { value: "*.rs, *.ron" } });
    fireEvent.input(input("Root markers"), { target: { value: "Cargo.toml" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ name: "rust",
      config: { command: "rust-analyzer", args: [], filePatterns: ["*.rs", "*.ron"], rootMarkers: ["Cargo.toml"], disabled: undefined } }));
    expect(await screen.findByText("Saved rust: sessions opened from now on use it.")).toBeTruthy();

    save.mockRejectedValueOnce("settings: language server rust: the command \"ra x\" is one program; put its arguments under args");
    fireEvent.click(screen.getByRole("button", { name: "Edit rust" }));
    fireEvent.click(within(screen.getByRole("form", { name: "Edit rust" })).getByRole("button", { name: "Save" }));
    expect((await screen.findAllByRole("alert")).map((a) => a.textContent).join()).toContain("put its arguments under args");
  });
});
