import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { parseSlash, slashMatches } from "./SlashMenu";

beforeAll(giveLayout);
afterEach(cleanup);

describe("slash commands", () => {
  it("parses and matches drafts", () => {
    expect(parseSlash("/review  src/a.go now")).toEqual({ name: "review", args: "src/a.go now" });
    expect(parseSlash("/usr/bin is odd")).toBeUndefined();
    expect(parseSlash("/srv:prompt a")).toEqual({ name: "srv:prompt", args: "a" });
    const cmds = [{ name: "review", description: "", origin: "user", source: "x" }, { name: "plan", description: "", origin: "built-in", source: "built-in" }] as const;
    expect(slashMatches("/re", cmds).map((c) => c.name)).toEqual(["review"]);
    expect(slashMatches("/review x", cmds)).toEqual([]);
  });

  it("lists commands under /, completes with Tab and runs a user's command with its argument", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    fireEvent.input(box, { target: { value: "/" } });
    const menu = await screen.findByRole("listbox", { name: "Commands" });
    await waitFor(() => expect(within(menu).getAllByRole("option")).toHaveLength(2));
    fireEvent.input(box, { target: { value: "/rev" } });
    fireEvent.keyDown(box, { key: "Tab" });
    expect(box.value).toBe("/review ");
    fireEvent.input(box, { target: { value: "/review src/a.go" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenCalledWith({ text: "/review src/a.go", command: { name: "review", args: "src/a.go" } }));
    fireEvent.input(box, { target: { value: "/usr/bin/env is what?" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenLastCalledWith({ text: "/usr/bin/env is what?" }));
  });

  it("lists a shadowed entry after the others, disabled, naming what runs instead, and never sends it as a command", async () => {
    const b = fakeBackend();
    b.commands.mockResolvedValue([
      { name: "plan", description: "Plan mode", origin: "built-in", source: "built-in" },
      { name: "fix", description: "Fix it", origin: "skill", source: "skills/fix" },
      { name: "plan", description: "My plan", origin: "user", source: "/c/plan.md", shadowedBy: "built-in" },
      { name: "fix", description: "Server fix", origin: "mcp-prompt", source: "srv", shadowedBy: "skills/fix" },
    ]);
    render(<App backend={b} />);
    const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    fireEvent.input(box, { target: { value: "/" } });
    const menu = await screen.findByRole("listbox", { name: "Commands" });
    await waitFor(() => expect(within(menu).getAllByRole("option")).toHaveLength(4));
    const shadowed = within(menu).getAllByRole("option").filter((o) => o.getAttribute("aria-disabled") === "true");
    expect(shadowed.map((o) => o.textContent)).toEqual([
      "/plan My plan · yours · not run: a built-in has this name",
      "/fix Server fix · server prompt · not run: skills/fix has this name",
    ]);
    fireEvent.input(box, { target: { value: "/fix the bug" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenCalledWith({ text: "/fix the bug", command: { name: "fix", args: "the bug" } }));
  });
});
