import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { promptArgs, quoteArg } from "./PromptArgs";

beforeAll(giveLayout);
afterEach(cleanup);

describe("an MCP prompt's arguments", () => {
  it("quotes values as the backend reads them back", () => {
    expect(quoteArg("Paris")).toBe("Paris");
    expect(quoteArg("San Antonio")).toBe('"San Antonio"');
    expect(quoteArg('say "hi" \\')).toBe('"say \\"hi\\" \\\\"');
    expect(quoteArg("")).toBe('""');
    expect(promptArgs({ city: "San Antonio", state: "" }, ["city", "state"])).toBe('city="San Antonio"');
  });

  it("are asked in a form when the prompt is picked; a required one is enforced; Send submits the expansion's call", async () => {
    const b = fakeBackend();
    b.commands.mockResolvedValue([
      { name: "everything:args-prompt", description: "A prompt with two arguments", origin: "mcp-prompt", source: "MCP server everything",
        arguments: [{ name: "city", description: "Name of the city", required: true }, { name: "state", description: "Name of the state" }] },
    ]);
    render(<App backend={b} />);
    const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    fireEvent.input(box, { target: { value: "/" } });
    const menu = await screen.findByRole("listbox", { name: "Commands" });
    await waitFor(() => expect(within(menu).getAllByRole("option")).toHaveLength(1));
    fireEvent.input(box, { target: { value: "/ever" } });
    fireEvent.keyDown(box, { key: "Tab" });
    const form = await screen.findByRole("dialog", { name: "Arguments of /everything:args-prompt" });
    const city = within(form).getByRole("textbox", { name: "city (required)" });
    expect(document.activeElement).toBe(city);
    fireEvent.click(within(form).getByRole("button", { name: "Send" }));
    expect(within(form).getByRole("alert").textContent).toContain("Fill in city");
    expect(b.submit).not.toHaveBeenCalled();
    fireEvent.input(city, { target: { value: "San Antonio" } });
    fireEvent.click(within(form).getByRole("button", { name: "Send" }));
    await waitFor(() => expect(b.submit).toHaveBeenCalledWith({ text: '/everything:args-prompt city="San Antonio"',
      command: { name: "everything:args-prompt", args: 'city="San Antonio"' } }));
    expect(screen.queryByRole("dialog", { name: /Arguments of/ })).toBeNull();
  });
});
