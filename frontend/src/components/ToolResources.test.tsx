import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { TranscriptItem } from "../bridge";
import { ToolCard } from "./ToolCard";
import { ChatActionsContext, type ChatActions } from "./ChatActions";

afterEach(cleanup);

const item: TranscriptItem = {
  kind: "tool", id: "c1", turnId: "t1", tool: "mcp__everything__get-resource-links", args: { count: 2 }, running: false, isError: false,
  result: {
    content: "[resource link] demo://resource/dynamic/text/2 (Text Resource 2)",
    resources: [
      { server: "everything", uri: "demo://resource/dynamic/text/2", name: "Text Resource 2", mimeType: "text/plain" },
      { server: "everything", uri: "demo://resource/dynamic/blob/1", name: "Blob Resource 1", mimeType: "text/plain" },
    ],
  },
};

describe("an MCP result's resources on its card", () => {
  it("are listed and a link is read from its server when opened; a failure says why in place", async () => {
    const readResource = vi.fn(async (server: string, uri: string) => {
      if (uri.includes("blob")) throw new Error("MCP server \"everything\" is stopped");
      return { server, uri, contents: [{ uri, mimeType: "text/plain", text: "Resource 2: this is a plaintext resource" }] };
    });
    const actions = { openURL: () => {}, openSettings: () => {}, copy: async () => {}, readResource } as ChatActions;
    render(<ChatActionsContext.Provider value={actions}><ToolCard item={item} /></ChatActionsContext.Provider>);
    fireEvent.click(screen.getByRole("button", { expanded: false }));
    const list = screen.getByRole("list", { name: "Resources" });
    const text = within(list).getByRole("listitem", { name: "Resource Text Resource 2" });
    expect(readResource).not.toHaveBeenCalled();
    fireEvent.click(within(text).getByRole("button", { name: "Open Text Resource 2" }));
    await waitFor(() => expect(within(text).getByLabelText("Content of demo://resource/dynamic/text/2").textContent).toContain("plaintext resource"));
    expect(readResource).toHaveBeenCalledWith("everything", "demo://resource/dynamic/text/2");
    const blob = within(list).getByRole("listitem", { name: "Resource Blob Resource 1" });
    fireEvent.click(within(blob).getByRole("button", { name: "Open Blob Resource 1" }));
    await waitFor(() => expect(within(blob).getByRole("alert").textContent).toContain("is stopped"));
  });
});
