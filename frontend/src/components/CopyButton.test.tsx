import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { ChatActionsContext, type ChatActions } from "./ChatActions";
import { CodeBlock } from "./CodeBlock";
import { Markdown } from "./Markdown";
import { Transcript } from "./Transcript";
import { ToolCard } from "./ToolCard";
import { giveLayout } from "../test/fakeBackend";

afterEach(cleanup);
beforeAll(giveLayout);

function withCopy(node: ReactNode, copy: ChatActions["copy"]) {
  return render(<ChatActionsContext.Provider value={{ openURL: () => {}, openSettings: () => {}, copy }}>{node}</ChatActionsContext.Provider>);
}

describe("copy buttons", () => {
  it("copy a code block's text, without the gutter's numbers, and say so", async () => {
    const copy = vi.fn(async () => {});
    withCopy(<CodeBlock code={"a := 1\nb := 2\n"} language="go" label="Excerpt of a.go" startLine={7} />, copy);
    fireEvent.click(screen.getByRole("button", { name: "Copy excerpt of a.go" }));
    expect(copy).toHaveBeenCalledWith("a := 1\nb := 2\n");
    await screen.findByText("Copied");
  });

  it("say why when the clipboard refuses", async () => {
    withCopy(<CodeBlock code="x" />, async () => { throw new Error("No clipboard is available here."); });
    const b = screen.getByRole("button", { name: "Copy code" });
    fireEvent.click(b);
    await screen.findByText("Copy failed");
    expect(b.title).toBe("No clipboard is available here.");
  });

  it("copy a fenced block of a reply", async () => {
    const copy = vi.fn(async () => {});
    withCopy(<Markdown text={"Run this:\n\n```sh\nnpm test\n```\n"} />, copy);
    const b = screen.getByRole("button", { name: "Copy code" });
    fireEvent.click(b);
    expect(copy).toHaveBeenCalledWith("npm test");
    await waitFor(() => expect(b.textContent).toBe("Copied"));
  });

  it("copy a message as written", () => {
    const copy = vi.fn(async () => {});
    withCopy(
      <Transcript queued={[]} empty={null} items={[
        { kind: "user", id: "t1", turnId: "t1", text: "fix the **bug**" },
        { kind: "assistant", id: "m1", turnId: "t1", text: "Done: `x`." },
      ]} />,
      copy,
    );
    fireEvent.click(screen.getByRole("button", { name: "Copy message" }));
    fireEvent.click(screen.getByRole("button", { name: "Copy reply" }));
    expect(copy.mock.calls).toEqual([["fix the **bug**"], ["Done: `x`."]]);
  });

  it("copy a command's output as it printed it, stdout and stderr apart", () => {
    const copy = vi.fn(async () => {});
    withCopy(
      <ToolCard item={{
        kind: "tool", id: "c1", turnId: "t1", tool: "bash", args: { action: "exec", command: "make" }, running: false, isError: false, durationMs: 9,
        result: { command: "make", exitCode: 2, stdout: "cc -o app\n", stderr: "error: x\n", timedOut: false },
      }} />,
      copy,
    );
    fireEvent.click(screen.getByRole("button", { name: /make/ }));
    fireEvent.click(screen.getByRole("button", { name: "Copy output" }));
    fireEvent.click(screen.getByRole("button", { name: "Copy error output" }));
    expect(copy.mock.calls).toEqual([["cc -o app\n"], ["error: x\n"]]);
    expect(screen.queryByText("Result")).toBeNull();
  });
});
