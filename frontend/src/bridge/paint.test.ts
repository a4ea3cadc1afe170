import { describe, expect, it, vi } from "vitest";
import { backend } from "./index";
import { leftoverBackend } from "./sandbox";
import { agentsTrustBackend } from "./agents";

// The bound functions Wails would install, as spies.
const bound = {
  Leftovers: vi.fn(async () => []),
  AgentsPending: vi.fn(async () => null),
  Commands: vi.fn(async () => []),
  State: vi.fn(async () => ({})),
  Ready: vi.fn(async () => {}),
};
Object.assign(window, { go: { gui: { App: bound } } });

describe("the first frame comes first", () => {
  it("holds what the first frame does not show until the page says it drew it, and lets the frame's own state through", async () => {
    const left = leftoverBackend.list();
    const pending = agentsTrustBackend.pending();
    const commands = backend.commands();
    await backend.state();
    expect(bound.State).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(bound.Leftovers).not.toHaveBeenCalled();
    expect(bound.AgentsPending).not.toHaveBeenCalled();
    expect(bound.Commands).not.toHaveBeenCalled();

    await backend.ready();
    expect(await left).toEqual([]);
    expect(await pending).toBeNull();
    expect(await commands).toEqual([]);
    expect(bound.Leftovers).toHaveBeenCalledTimes(1);
    // Later calls go at once.
    await leftoverBackend.list();
    expect(bound.Leftovers).toHaveBeenCalledTimes(2);
  });
});
