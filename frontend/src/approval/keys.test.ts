import { describe, expect, it } from "vitest";
import { keyAction, trapTarget } from "./keys";

const k = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}, targetTag = "INPUT") =>
  keyAction({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, targetTag, ...mods });

describe("dialog keys", () => {
  it("approves only with Ctrl (or Cmd) held", () => {
    expect(k("Enter", { ctrlKey: true })).toBe("approve-once");
    expect(k("Enter", { metaKey: true })).toBe("approve-once");
    expect(k("Enter", { ctrlKey: true, shiftKey: true })).toBe("approve-session");
  });

  it("never approves on a bare Enter, and leaves a focused button to the browser", () => {
    expect(k("Enter")).toBe("swallow");
    expect(k("Enter", { shiftKey: true })).toBe("swallow");
    expect(k("Enter", {}, "BUTTON")).toBeNull();
    expect(k(" ")).toBeNull(); // Space ticks the focused checkbox
  });

  it("in the note field, Ctrl+Enter and Ctrl+Shift+Enter reject, never approve", () => {
    const note = (mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }>) =>
      keyAction({ key: "Enter", ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, targetTag: "INPUT", inNote: true, ...mods });
    expect(note({ ctrlKey: true })).toBe("reject");
    expect(note({ metaKey: true })).toBe("reject");
    expect(note({ ctrlKey: true, shiftKey: true })).toBe("reject");
    expect(note({})).toBe("swallow");
  });

  it("sends Esc to Reject", () => {
    expect(k("Escape")).toBe("focus-reject");
  });

  it("wraps Tab around the dialog", () => {
    const root = document.createElement("div");
    root.innerHTML = `<input id="a"><button id="b">x</button><button id="c" disabled>y</button>`;
    document.body.append(root);
    const a = root.querySelector<HTMLElement>("#a")!;
    const b = root.querySelector<HTMLElement>("#b")!;
    expect(trapTarget(root, b, false)).toBe(a);
    expect(trapTarget(root, a, true)).toBe(b);
    expect(trapTarget(root, a, false)).toBeNull();
    expect(trapTarget(root, document.body, false)).toBe(a);
    root.remove();
  });
});
