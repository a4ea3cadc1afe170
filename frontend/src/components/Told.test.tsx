import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { AppMenu } from "./About";
import type { ToldView } from "../bridge/told";

afterEach(cleanup);

const view: ToldView = {
  session: true,
  instructions: [
    { path: "/home/me/.config/gatehouse/AGENTS.md", scope: "user", bytes: 120 },
    { path: "CLAUDE.md", scope: "workspace", bytes: 40000, truncated: true },
    { path: "docs/style.md", scope: "workspace", bytes: 2048, importedBy: "CLAUDE.md" },
    { path: "../secrets.md", scope: "workspace", bytes: 0, importedBy: "CLAUDE.md", skipped: "it lies outside the workspace" },
    { path: "api/AGENTS.md", scope: "api", bytes: 300, because: "api/handler.go" },
  ],
  catalog: "- pdf: Fill PDF forms. (folder: /home/me/.agents/skills/pdf)\n- and 2 more whose descriptions did not fit: zeta, zulu\n",
  offered: ["pdf", "zeta", "zulu"],
  excess: ["zeta", "zulu"],
  bound: 12288,
  loaded: [{ skill: "pdf", folder: "/home/me/.agents/skills/pdf", instructions: "Run scripts/fill.py.", allowedTools: "Bash(python3:*)" }],
};

async function openTold(load: () => Promise<ToldView>) {
  render(<AppMenu version="1" told={load} load={() => new Promise(() => {})} />);
  fireEvent.click(screen.getByRole("button", { name: "Menu" }));
  fireEvent.click(screen.getByRole("menuitem", { name: "What the model was told" }));
  return screen.getByRole("dialog", { name: "What the model was told" });
}

describe("What the model was told", () => {
  it("lists each instruction file with its size, why it was read, a cap, an import and a refused import", async () => {
    const dialog = await openTold(async () => view);
    const files = await within(dialog).findByRole("region", { name: "Instruction files" });
    const items = within(files).getAllByRole("listitem");
    expect(items).toHaveLength(5);
    expect(items[0].textContent).toContain("120 bytes");
    expect(items[0].textContent).toContain("for every workspace");
    expect(items[1].textContent).toContain("39.1 KiB");
    expect(items[1].textContent).toContain("capped");
    expect(items[1].textContent).toContain("system prompt");
    expect(items[2].textContent).toContain("imported by");
    expect(items[2].textContent).toContain("CLAUDE.md");
    expect(items[3].textContent).toContain("not imported: it lies outside the workspace");
    expect(items[4].textContent).toContain("for the folder api/");
    expect(items[4].textContent).toContain("when the model first worked on api/handler.go");
  });

  it("shows the catalog as sent, names the skills past its bound, and each loaded skill's instructions", async () => {
    const dialog = await openTold(async () => view);
    const catalog = await within(dialog).findByRole("region", { name: "Skills catalog" });
    expect(catalog.textContent).toContain("3 offered");
    expect(catalog.textContent).toContain("2 past the catalog's bound of 12.0 KiB, named without their descriptions: zeta, zulu");
    expect(within(catalog).getByLabelText("The catalog as sent").textContent).toContain("- pdf: Fill PDF forms.");
    const loaded = within(dialog).getByRole("region", { name: "Loaded skills" });
    expect(loaded.textContent).toContain("skill pdf");
    expect(loaded.textContent).toContain("Run scripts/fill.py.");
    expect(loaded.textContent).toContain("grants nothing");
  });

  it("says what to do when nothing was told, and closes with Escape giving focus back to the menu", async () => {
    const dialog = await openTold(async () => ({ ...view, instructions: [], offered: [], excess: [], catalog: "", loaded: [] }));
    expect(await within(dialog).findByText(/No AGENTS.md or CLAUDE.md was read/)).toBeTruthy();
    expect(within(dialog).getByText(/No skill is offered/)).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Close" }));
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Menu" }));
  });

  it("says no session is open yet, and shows a failure in words", async () => {
    let dialog = await openTold(async () => ({ ...view, session: false }));
    expect(await within(dialog).findByText(/No session is open yet/)).toBeTruthy();
    cleanup();
    dialog = await openTold(vi.fn(async () => Promise.reject(new Error("no bindings"))));
    expect((await within(dialog).findByRole("alert")).textContent).toContain("no bindings");
  });
});
