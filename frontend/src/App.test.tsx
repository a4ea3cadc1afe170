import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { createRoot } from "react-dom/client";
import { cleanup, render, screen, waitFor, fireEvent, within } from "@testing-library/react";

afterEach(cleanup);
import { App } from "./App";
import { fakeBackend } from "./test/fakeBackend";
import type { ApprovalMode } from "./bridge";

describe("App frame", () => {
  it("shows the workspace and the approval mode, and calls Ready once drawn", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    expect(await screen.findByRole("button", { name: /Workspace proj/ })).toBeTruthy();
    expect((screen.getByRole("combobox", { name: "Approval mode" }) as HTMLSelectElement).value).toBe("safe");
    await waitFor(() => expect(b.ready).toHaveBeenCalledTimes(1));
  });

  it("calls Ready in the second frame after the one that first draws the state, as a bare page's rAF-rAF would, and fills the closed panels after", async () => {
    const frames: FrameRequestCallback[] = [];
    const real = window.requestAnimationFrame;
    window.requestAnimationFrame = (cb) => frames.push(cb);
    try {
      const b = fakeBackend();
      const initial = await b.state();
      // Rendered as main.tsx does, not in act(), which would run every effect at once.
      const root = createRoot(document.body.appendChild(document.createElement("div")));
      root.render(<App backend={b} initialState={initial} />);
      onTestFinished(() => root.unmount());
      // Each frame runs the callbacks asked for before it, then what was put off (timers) settles.
      const frame = async () => {
        for (const cb of frames.splice(0)) cb(performance.now());
        await new Promise((r) => setTimeout(r, 5));
      };
      // The closed side panels' content is not part of the first frame.
      const processes = () => document.getElementById("panel-processes")!;
      expect(processes().hidden).toBe(true);
      expect(processes().childElementCount).toBe(0);
      await frame(); // the frame that paints the state
      expect(b.ready).not.toHaveBeenCalled();
      await frame();
      expect(b.ready).toHaveBeenCalledTimes(1);
      // Once drawn, it mounts (hidden, as before): what it shows is there when the panel opens.
      await waitFor(() => expect(processes().textContent).toContain("No processes yet"));
    } finally {
      window.requestAnimationFrame = real;
    }
  });

  it("keeps the version in About, not the header; the gauge says the window before the first turn", async () => {
    const b = fakeBackend();
    let answer!: (w: { tokens: number; source: string }) => void;
    b.contextWindow.mockReturnValueOnce(new Promise((r) => (answer = r)));
    render(<App backend={b} />);
    const header = (await screen.findByRole("button", { name: /Workspace proj/ })).closest("header")!;
    expect(header.textContent).not.toContain("1.2.3");
    const gauge = screen.getByRole("meter", { name: "Context window" });
    expect(gauge.textContent).toContain("detecting…");
    answer({ tokens: 200_000, source: "known_model" });
    await waitFor(() => expect(gauge.textContent).toContain("200K window"));
    expect(gauge.title).toContain("200,000 tokens (known for this model)");
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "About Gatehouse" }));
    expect(within(screen.getByRole("dialog", { name: "About Gatehouse" })).getByText("1.2.3")).toBeTruthy();
  });

  it("switches the approval mode through the backend", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    const select = (await screen.findByRole("combobox", { name: "Approval mode" })) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "manual" } });
    await waitFor(() => expect(select.value).toBe("manual"));
    expect(b.setApprovalMode).toHaveBeenCalledWith("manual");
  });

  it("shows a badge while the mode is auto, and says once in the transcript that the window started in auto", async () => {
    const b = fakeBackend({ approvalMode: "auto" });
    render(<App backend={b} />);
    expect(await screen.findByText("auto: nothing asks first")).toBeTruthy();
    const log = screen.getByRole("log", { name: "Conversation" });
    const notes = within(log).getAllByRole("note");
    expect(notes).toHaveLength(1);
    expect(notes[0].textContent).toContain("This window started in auto mode");
    fireEvent.change(screen.getByRole("combobox", { name: "Approval mode" }), { target: { value: "safe" } });
    await waitFor(() => expect(screen.queryByText("auto: nothing asks first")).toBeNull());
    expect(within(log).getAllByRole("note")).toHaveLength(1); // said once: it stays where it was said
  });

  it("says nothing of auto in a window started in another mode, and badges auto once chosen", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    const select = await screen.findByRole("combobox", { name: "Approval mode" });
    expect(screen.queryByText("auto: nothing asks first")).toBeNull();
    fireEvent.change(select, { target: { value: "auto" } });
    expect(await screen.findByText("auto: nothing asks first")).toBeTruthy();
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("asks for a folder when there is no workspace", async () => {
    const b = fakeBackend({ workspace: "", workspaceName: "" });
    render(<App backend={b} />);
    expect(await screen.findByRole("heading", { name: "Choose a folder to start" })).toBeTruthy();
    expect((screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement).disabled).toBe(true);
  });

  it("draws its first render as the real frame when main.tsx had the state, in the saved theme", async () => {
    const b = fakeBackend({ theme: "dark" });
    const initial = await b.state();
    b.state.mockClear();
    render(<App backend={b} initialState={initial} />);
    // No loading screen and no second State() call: the frame is there at once.
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByRole("button", { name: /Workspace proj/ })).toBeTruthy();
    expect(b.state).not.toHaveBeenCalled();
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    await waitFor(() => expect(b.ready).toHaveBeenCalledTimes(1));
  });

  it("follows the theme in the state the backend returns", async () => {
    delete document.documentElement.dataset.theme;
    const b = fakeBackend({ theme: "light" });
    render(<App backend={b} />);
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("light"));
    b.setApprovalMode.mockImplementationOnce(async (m: ApprovalMode) => ({ ...(await b.state()), approvalMode: m, theme: "system" }));
    fireEvent.change(await screen.findByRole("combobox", { name: "Approval mode" }), { target: { value: "auto" } });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBeUndefined());
  });
});
