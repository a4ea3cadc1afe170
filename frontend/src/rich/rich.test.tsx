import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";

// Every other test file starts with rich text loaded (test/setup.ts). Here a
// fresh module graph shows the first frame's view: plain text until the
// highlighter and markdown renderer arrive, then the same components redraw.
describe("rich text before and after it loads", () => {
  afterEach(cleanup);

  it("shows markdown and code as plain text first, then rendered and highlighted", async () => {
    vi.resetModules();
    const rich = await import("./index");
    const { Markdown } = await import("../components/Markdown");
    const { CodeBlock } = await import("../components/CodeBlock");
    expect(rich.renderMarkdown("x")).toBeUndefined();
    expect(rich.highlight("<b>", "go")).toBe("&lt;b&gt;");

    render(
      <>
        <Markdown text={"Hello **there**"} />
        <CodeBlock code={"func main() {}"} language="go" label="code" />
      </>,
    );
    // Before: the text as typed, nothing parsed, code escaped without spans.
    expect(screen.getByText("Hello **there**")).toBeTruthy();
    expect(screen.getByLabelText("code").querySelector(".hljs-keyword")).toBeNull();

    // useRich asked for the code on mount; the components redraw when it is in.
    const bold = await screen.findByText("there");
    expect(bold.tagName).toBe("STRONG");
    expect(screen.queryByText("Hello **there**")).toBeNull();
    expect(screen.getByLabelText("code").querySelector(".hljs-keyword")?.textContent).toBe("func");
  });

  it("loads once however many ask", async () => {
    vi.resetModules();
    const rich = await import("./index");
    await Promise.all([rich.loadRich(), rich.loadRich(), rich.loadRich()]);
    expect(rich.languageFor("main.go")).toBe("go");
    expect(rich.renderMarkdown("*a*")).toContain("<em>a</em>");
  });
});
