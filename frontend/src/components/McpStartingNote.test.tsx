import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import type { McpUpdatedPayload } from "../bridge";
import type { McpBackend } from "../bridge/mcp";
import { useMcpStartingNote } from "./McpStartingNote";

afterEach(cleanup);

function Host({ mcp, turnId }: { mcp: McpBackend; turnId: string }) {
  return <div>{useMcpStartingNote(mcp, turnId)}</div>;
}

describe("useMcpStartingNote", () => {
  it("says a turn runs without a server that is still starting, and not once it is ready", async () => {
    let push: (p: McpUpdatedPayload) => void = () => {};
    const mcp = {
      list: vi.fn(async () => ({ claudeImport: false, servers: [{ name: "github", source: "", state: "starting" as const, target: "x" }] })),
      subscribe: (f: (p: McpUpdatedPayload) => void) => ((push = f), () => {}),
    } as unknown as McpBackend;
    const { rerender } = render(<Host mcp={mcp} turnId="" />);
    await waitFor(() => expect(mcp.list).toHaveBeenCalled());
    await act(async () => {});
    rerender(<Host mcp={mcp} turnId="t1" />);
    expect(screen.getByRole("note", { name: "MCP servers starting" }).textContent).toContain("MCP server github was still starting: it runs without its tools");
    rerender(<Host mcp={mcp} turnId="" />);
    expect(screen.queryByRole("note")).toBeNull();
    act(() => push({ servers: [{ name: "github", source: "", state: "ready", target: "x" }] }));
    rerender(<Host mcp={mcp} turnId="t2" />);
    expect(screen.queryByRole("note")).toBeNull();
  });
});
