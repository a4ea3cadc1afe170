import { describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { layoutPanels, MIN_CHAT, MIN_PANEL, RAIL, usePanels, type PanelSpec } from "./panels";

const spec = (id: string, width: number, openedAt: number): PanelSpec => ({ id, width, open: openedAt > 0, openedAt });
const chatWidth = (w: number, out: ReturnType<typeof layoutPanels>) =>
  w - Object.values(out).reduce((s, p) => s + (p.shown && !p.overlay ? p.width : RAIL), 0);

describe("layoutPanels", () => {
  it("shows every open panel when there is room", () => {
    const out = layoutPanels(1800, [spec("files", 260, 1), spec("servers", 360, 2), spec("processes", 440, 3)]);
    expect(Object.values(out).map((p) => p.shown)).toEqual([true, true, true]);
    expect(chatWidth(1800, out)).toBe(740);
  });

  it("at 1280 px with every panel open, folds the older ones so the chat keeps its minimum", () => {
    const out = layoutPanels(1280, [spec("files", 260, 1), spec("servers", 360, 2), spec("processes", 440, 3)]);
    expect(out.processes).toMatchObject({ shown: true, folded: false, width: 440 });
    expect(out.servers).toMatchObject({ shown: false, folded: true });
    expect(out.files).toMatchObject({ shown: false, folded: true });
    expect(chatWidth(1280, out)).toBeGreaterThanOrEqual(MIN_CHAT);
    // Bringing Files forward shows it; of the others, the latest that still fits beside it.
    const again = layoutPanels(1280, [spec("files", 260, 4), spec("servers", 360, 2), spec("processes", 440, 3)]);
    expect(again.files.shown).toBe(true);
    expect(again.processes).toMatchObject({ shown: false, folded: true });
    expect(again.servers.shown).toBe(true);
    expect(chatWidth(1280, again)).toBeGreaterThanOrEqual(MIN_CHAT);
    // A drag may grow a panel only as far as the chat allows.
    expect(again.files.maxWidth).toBe(1280 - MIN_CHAT - RAIL - 360);
  });

  it("narrows a panel alone to the room left, and floats it over the chat when even that is too little", () => {
    const narrow = layoutPanels(1000, [spec("files", 260, 0), spec("processes", 440, 1)]);
    expect(narrow.processes).toMatchObject({ shown: true, overlay: false, width: 1000 - MIN_CHAT - RAIL });
    const tiny = layoutPanels(760, [spec("files", 260, 0), spec("processes", 440, 1)]);
    expect(tiny.processes).toMatchObject({ shown: true, overlay: true });
    expect(tiny.processes.width).toBeGreaterThanOrEqual(MIN_PANEL);
    expect(tiny.files).toMatchObject({ shown: false, folded: false });
  });
});

describe("usePanels", () => {
  it("takes the saved width until one is dragged, and saves a run of key presses once", () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const { result } = renderHook(() => usePanels({ files: 260, processes: 440 }, { processes: 500 }, save));
    expect(result.current.specs.map((s) => [s.id, s.width, s.open])).toEqual([["files", 260, false], ["processes", 500, false]]);
    act(() => {
      result.current.setOpen("processes", true);
      for (const w of [516, 532, 548]) (result.current.setWidth("processes", w), result.current.commitWidth("processes", w));
    });
    expect(result.current.specs[1]).toMatchObject({ open: true, width: 548 });
    expect(save).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(400));
    expect(save.mock.calls).toEqual([["processes", 548]]);
    vi.useRealTimers();
  });
});
