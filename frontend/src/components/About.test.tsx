import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend } from "../test/fakeBackend";
import type { LicenseList } from "./About";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const list: LicenseList = {
  version: "1.2.3",
  go: "go1.26.8",
  components: [
    { kind: "go", name: "github.com/openai/openai-go/v3", version: "v3.98.0", license: "Apache-2.0", text: "Apache License\nVersion 2.0, January 2004" },
    { kind: "go", name: "github.com/wailsapp/wails/v2", version: "v2.9.2", license: "MIT", text: "MIT License\nCopyright (c) Lea Anthony" },
    { kind: "npm", name: "preact", version: "10.29.8", license: "MIT", text: "The MIT License (MIT)\nCopyright (c) Jason Miller" },
  ],
};

function serve(body: unknown, status = 200) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

async function openAbout() {
  fireEvent.click(await screen.findByRole("button", { name: "Menu" }));
  fireEvent.click(screen.getByRole("menuitem", { name: "About Gatehouse" }));
  return screen.getByRole("dialog", { name: "About Gatehouse" });
}

describe("About", () => {
  it("opens from the header's menu with the version and each bundled component's licence", async () => {
    const fetch = serve(list);
    render(<App backend={fakeBackend()} />);
    const dialog = await openAbout();
    expect(fetch).toHaveBeenCalledWith("/licenses.json");
    expect(dialog.textContent).toContain("Version 1.2.3");
    const goModules = await within(dialog).findByRole("region", { name: "Go modules" });
    expect(goModules.textContent).toContain("(2)");
    expect(goModules.textContent).toContain("github.com/openai/openai-go/v3");
    expect(goModules.textContent).toContain("Apache-2.0");
    const npm = within(dialog).getByRole("region", { name: "npm packages" });
    expect(npm.textContent).toContain("preact");
    expect(npm.textContent).toContain("10.29.8");
    expect(dialog.textContent).toContain("built with go1.26.8");
    // The licence's text is there to read when its entry is opened.
    const preact = within(npm).getByText("preact").closest("details")!;
    expect(preact.open).toBe(false);
    fireEvent.click(preact.querySelector("summary")!);
    expect(preact.textContent).toContain("Copyright (c) Jason Miller");
  });

  it("closes on Escape and gives focus back to the menu button", async () => {
    serve(list);
    render(<App backend={fakeBackend()} />);
    const dialog = await openAbout();
    await within(dialog).findByRole("region", { name: "Go modules" });
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Close" }));
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Menu" }));
  });

  it("says so when the build has no licence list, and still shows the version", async () => {
    serve({ error: "not found" }, 404);
    render(<App backend={fakeBackend()} />);
    const dialog = await openAbout();
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toContain("The licence list is missing from this build (HTTP 404)"));
    expect(dialog.textContent).toContain("Version 1.2.3");
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
