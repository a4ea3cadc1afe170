import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

async function setup() {
  const b = fakeBackend();
  render(<App backend={b} />);
  const button = await screen.findByRole("button", { name: "Model fake-model" });
  return { b, button };
}

const radios = (menu: HTMLElement) => within(menu).getAllByRole("menuitemradio");

describe("ModelMenu", () => {
  it("Esc closes the menu even when focus has left it (a redraw moved the focused item)", async () => {
    const { button } = await setup();
    fireEvent.click(button);
    const menu = await screen.findByRole("menu", { name: "Models" });
    (document.activeElement as HTMLElement | null)?.blur();
    expect(menu.contains(document.activeElement)).toBe(false);
    fireEvent.keyDown(document.body, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("menu", { name: "Models" })).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it("lists the server's models with the current one checked, and switches to another", async () => {
    const { b, button } = await setup();
    let resolve!: (l: string[]) => void;
    b.listModels.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const menu = await screen.findByRole("menu", { name: "Models" });
    // While the list loads, the current model is there, checked and focused.
    expect(screen.getByRole("status").textContent).toBe("Loading models…");
    expect(radios(menu).map((i) => i.textContent)).toEqual(["✓fake-model"]);
    expect(document.activeElement).toBe(radios(menu)[0]);

    resolve(["a-model", "fake-model", "other-model"]);
    await waitFor(() => expect(radios(menu)).toHaveLength(3));
    expect(screen.queryByRole("status")).toBeNull();
    expect(radios(menu).map((i) => [i.textContent, i.getAttribute("aria-checked")])).toEqual([
      ["a-model", "false"],
      ["✓fake-model", "true"],
      ["other-model", "false"],
    ]);
    expect(document.activeElement).toBe(radios(menu)[1]);
    expect(radios(menu)[2].getAttribute("title")).toBe("Applies from the next turn");
    expect(within(menu).getByRole("menuitem", { name: "Settings…" })).toBeTruthy();

    fireEvent.click(radios(menu)[2]);
    await waitFor(() => expect(b.setModel).toHaveBeenCalledWith("other-model"));
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    const after = screen.getByRole("button", { name: "Model other-model" });
    expect(document.activeElement).toBe(after);
    expect(after.getAttribute("aria-expanded")).toBe("false");
  });

  it("says in words why the list failed and still shows the current model", async () => {
    const { b, button } = await setup();
    b.listModels.mockRejectedValueOnce(new Error("The model server is unreachable."));
    fireEvent.click(button);
    const menu = await screen.findByRole("menu", { name: "Models" });
    expect((await screen.findByRole("alert")).textContent).toBe("Could not list the models: The model server is unreachable.");
    expect(radios(menu).map((i) => [i.textContent, i.getAttribute("aria-checked")])).toEqual([["✓fake-model", "true"]]);
  });

  it("shows a refused switch in the menu and keeps the model", async () => {
    const { b, button } = await setup();
    b.setModel.mockRejectedValueOnce("the model fake-model was chosen with --model when Gatehouse started; start it without --model to switch models");
    fireEvent.click(button);
    const menu = await screen.findByRole("menu", { name: "Models" });
    await waitFor(() => expect(radios(menu)).toHaveLength(2));
    fireEvent.click(radios(menu)[1]);
    expect((await screen.findByRole("alert")).textContent).toContain("--model");
    expect(screen.getByRole("button", { name: "Model fake-model" })).toBeTruthy();
  });

  it("moves with the arrow keys, closes on Esc and on a click outside, and opens Settings", async () => {
    const { b, button } = await setup();
    fireEvent.click(button);
    let menu = await screen.findByRole("menu", { name: "Models" });
    await waitFor(() => expect(radios(menu)).toHaveLength(2));
    const settings = within(menu).getByRole("menuitem", { name: "Settings…" });
    expect(document.activeElement).toBe(radios(menu)[0]);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(radios(menu)[1]);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(settings);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(radios(menu)[0]);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp" });
    expect(document.activeElement).toBe(settings);
    fireEvent.keyDown(document.activeElement!, { key: "Home" });
    expect(document.activeElement).toBe(radios(menu)[0]);
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(b.setModel).not.toHaveBeenCalled();

    fireEvent.click(button);
    await screen.findByRole("menu", { name: "Models" });
    fireEvent.mouseDown(document.body);
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());

    fireEvent.click(button);
    menu = await screen.findByRole("menu", { name: "Models" });
    fireEvent.click(within(menu).getByRole("menuitem", { name: "Settings…" }));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeTruthy();
    expect(screen.queryByRole("menu")).toBeNull();
  });
});
