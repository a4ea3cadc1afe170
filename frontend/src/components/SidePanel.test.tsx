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

  it("lets the host own the open state", () => {
    const onOpenChange = vi.fn();
    render(<SidePanel side="right" title="Processes" emptyText="none" open={false} onOpenChange={onOpenChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Processes" }));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(screen.queryByRole("separator")).toBeNull();
  });
});
