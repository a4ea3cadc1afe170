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
    const cmds = [{ name: "review", description: "", source: "x" }, { name: "plan", description: "", source: "built-in" }];
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
    await waitFor(() => expect(b.runCommand).toHaveBeenCalledWith("review", "src/a.go"));
    expect(b.submit).not.toHaveBeenCalled();
    fireEvent.input(box, { target: { value: "/usr/bin/env is what?" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenCalledWith("/usr/bin/env is what?"));
  });
});
