import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { SidePanel } from "./SidePanel";

afterEach(cleanup);

describe("SidePanel", () => {
  it("resizes from its inner edge with the arrow keys", () => {
    render(<SidePanel side="right" title="Processes" emptyText="none" width={400} open onOpenChange={() => {}} />);
    const edge = screen.getByRole("separator", { name: "Resize processes" });
    const aside = screen.getByRole("complementary", { name: "Processes" });
    expect(aside.style.width).toBe("400px");
    fireEvent.keyDown(edge, { key: "ArrowLeft" }); // a right panel grows to the left
    expect(aside.style.width).toBe("416px");
  });

  it("reports a drag's end once, within the room the host gives", () => {
    const commits: number[] = [];
    let width = 300;
    const { rerender } = render(<SidePanel side="left" title="Files" emptyText="none" open width={width} maxWidth={420}
      onWidthChange={(w) => (width = w)} onWidthCommit={(w) => commits.push(w)} />);
    const edge = screen.getByRole("separator", { name: "Resize files" });
    fireEvent.pointerDown(edge, { clientX: 300 });
    fireEvent.pointerMove(window, { clientX: 350 });
    fireEvent.pointerMove(window, { clientX: 900 });
    expect(width).toBe(420); // no wider than the room for the chat allows
    rerender(<SidePanel side="left" title="Files" emptyText="none" open width={width} maxWidth={420} onWidthChange={(w) => (width = w)} onWidthCommit={(w) => commits.push(w)} />);
    fireEvent.pointerUp(window);
    expect(commits).toEqual([420]);
  });

  it("names its rail by its title, with no tooltip over the panel, and a folded one comes forward on a click", () => {
    const onOpenChange = vi.fn();
    const { rerender } = render(<SidePanel side="right" title="Servers" emptyText="none" open onOpenChange={onOpenChange} />);
    const toggle = screen.getByRole("button", { name: "Servers" });
    expect(toggle.getAttribute("title")).toBeNull();
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    rerender(<SidePanel side="right" title="Servers" emptyText="none" open folded onOpenChange={onOpenChange} />);
    const rail = screen.getByRole("button", { name: /^Servers\W+folded for room$/ });
    expect(rail.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(rail);
    expect(onOpenChange).toHaveBeenCalledWith(true);
  });

  it("lets the host own the open state", () => {
    const onOpenChange = vi.fn();
    render(<SidePanel side="right" title="Processes" emptyText="none" open={false} onOpenChange={onOpenChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Processes" }));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(screen.queryByRole("separator")).toBeNull();
  });
});
