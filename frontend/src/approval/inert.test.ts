import { describe, expect, it } from "vitest";
import { inertOutside } from "./inert";

describe("inertOutside", () => {
  it("makes everything but the dialog and its ancestors inert, and undoes only what it did", () => {
    const page = document.createElement("div");
    page.innerHTML = `<header id="h"></header><main id="m"><div id="side" inert></div><div id="wrap"><div id="d"><button id="in">x</button></div><p id="next"></p></div></main>`;
    document.body.append(page);
    const q = (id: string) => page.querySelector(`#${id}`)!;
    const undo = inertOutside(q("d") as HTMLElement);
    for (const id of ["h", "side", "next"]) expect(q(id).hasAttribute("inert"), id).toBe(true);
    for (const id of ["m", "wrap", "d", "in"]) expect(q(id).hasAttribute("inert"), id).toBe(false);
    undo();
    for (const id of ["h", "next"]) expect(q(id).hasAttribute("inert"), id).toBe(false);
    expect(q("side").hasAttribute("inert")).toBe(true);
    page.remove();
  });
});
