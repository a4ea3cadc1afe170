import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { TranscriptItem } from "../bridge";
import { ToolCard } from "./ToolCard";
import { ChatActionsContext } from "./ChatActions";
import { fileDiffs, readExcerpt, toolTarget, toolSummary, formatDuration } from "./toolSummary";

afterEach(cleanup);

const base = { kind: "tool", id: "c1", turnId: "t1" } as const;

describe("ToolCard", () => {
  it("shows a running call with a spinner and its elapsed time", () => {
    const it: TranscriptItem = { ...base, tool: "bash", args: { action: "exec", command: "npm test" }, running: true };
    render(<ToolCard item={it} />);
    const card = screen.getByRole("group", { name: "bash npm test, running" });
    expect(card.querySelector(".spinner")).not.toBeNull();
    expect(screen.getByLabelText(/running for \d+ ms/)).toBeTruthy();
  });

  it("is one line when done and expands to the read_file excerpt and the args", () => {
    const it: TranscriptItem = {
      ...base, tool: "read_file", args: { path: "README.md" }, running: false, isError: false, durationMs: 1234,
      result: { path: "README.md", content: "     1\t# Hello\n     2\tworld\n", startLine: 1, endLine: 2, totalLines: 2, truncated: false },
    };
    render(<ToolCard item={it} />);
    const line = screen.getByRole("button", { expanded: false });
    expect(line.textContent).toContain("read_file");
    expect(line.textContent).toContain("README.md");
    expect(line.textContent).toContain("lines 1–2 of 2");
    expect(line.textContent).toContain("1.2 s");
    expect(screen.queryByLabelText("Excerpt of README.md")).toBeNull();
    fireEvent.click(line);
    const excerpt = screen.getByLabelText("Excerpt of README.md");
    // The numbers the model reads go to the gutter; the code is the file's text.
    expect(excerpt.querySelector("code")?.textContent).toBe("# Hello\nworld\n");
    expect(excerpt.querySelector(".code-gutter")?.textContent).toBe("1\n2");
    expect(screen.getByText("Arguments")).toBeTruthy();
  });

  it("numbers a read_file range from its first line and keeps old unnumbered results as they are", () => {
    const ranged: TranscriptItem = {
      ...base, tool: "read_file", args: { path: "a.go", startLine: 41 }, running: false, isError: false, durationMs: 1,
      result: { path: "a.go", content: "    41\tfunc A() {\n    42\t\treturn\n    43\t}", startLine: 41, endLine: 43, totalLines: 43, truncated: false },
    };
    expect(readExcerpt(ranged)).toEqual({ path: "a.go", content: "func A() {\n\treturn\n}", startLine: 41 });
    render(<ToolCard item={ranged} />);
    fireEvent.click(screen.getByRole("button", { expanded: false }));
    expect(screen.getByLabelText("Excerpt of a.go").querySelector(".code-gutter")?.textContent).toBe("41\n42\n43");
    const old = { ...ranged, result: { path: "a.go", content: "plain\n" } };
    expect(readExcerpt(old)).toEqual({ path: "a.go", content: "plain\n" });
  });

  it("shows what a write_file call wrote as a diff: the diff of an overwrite, all lines added for a new file", () => {
    const over: TranscriptItem = {
      ...base, tool: "write_file", args: { path: "a.txt", content: "new\n" }, running: false, isError: false, durationMs: 3,
      result: { path: "a.txt", created: false, bytesWritten: 4, linesAdded: 1, linesRemoved: 1, diff: "@@ -1 +1 @@\n-old\n+new\n" },
    };
    render(<ToolCard item={over} />);
    const line = screen.getByRole("button", { expanded: false });
    expect(line.textContent).toContain("4 bytes +1 −1");
    fireEvent.click(line);
    const diff = screen.getByRole("group", { name: "Diff of a.txt" });
    expect(diff.querySelector(".diff-del .diff-code")?.textContent).toBe("old");
    expect(diff.querySelector(".diff-add .diff-code")?.textContent).toBe("new");
    cleanup();
    const created: TranscriptItem = {
      ...over, args: { path: "n.txt", content: "one\ntwo" },
      result: { path: "n.txt", created: true, bytesWritten: 7, linesAdded: 2, linesRemoved: 0 },
    };
    expect(fileDiffs(created)).toEqual([{ path: "n.txt", diff: "@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n" }]);
    render(<ToolCard item={created} />);
    fireEvent.click(screen.getByRole("button", { expanded: false }));
    const added = screen.getByRole("group", { name: "Diff of n.txt" }).querySelectorAll(".diff-add .diff-code");
    expect([...added].map((e) => e.textContent)).toEqual(["one", "two"]);
    expect(fileDiffs({ ...created, isError: true })).toEqual([]);
  });

  it("shows an error in red words without expanding", () => {
    const it: TranscriptItem = {
      ...base, tool: "read_file", args: { path: "nope.txt" }, running: false, isError: true, durationMs: 2,
      result: { ok: false, error: { code: "not_found", message: "nope.txt does not exist" } },
    };
    render(<ToolCard item={it} />);
    expect(screen.getByRole("group", { name: "read_file nope.txt, failed" })).toBeTruthy();
    expect(screen.getByText("nope.txt does not exist").className).toBe("tool-error");
  });

  it("shows an apply_patch result in the diff view", () => {
    const it: TranscriptItem = {
      ...base, tool: "apply_patch", args: { patch: "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch" },
      running: false, isError: false, durationMs: 5,
      result: { fileChanges: [{ path: "a.go", operation: "update", linesAdded: 1, linesRemoved: 1, diff: "@@ -1 +1 @@\n-x\n+y\n" }] },
    };
    render(<ToolCard item={it} />);
    const line = screen.getByRole("button", { expanded: false });
    expect(line.textContent).toContain("a.go");
    expect(line.textContent).toContain("1 file +1 −1");
    fireEvent.click(line);
    const diff = screen.getByRole("group", { name: "Diff of a.go" });
    expect(diff.querySelector(".diff-add .diff-code")?.textContent).toBe("y");
    expect(diff.querySelector(".diff-del .diff-code")?.textContent).toBe("x");
  });
});

describe("tool summaries", () => {
  it("names the target and result in a few words", () => {
    expect(toolTarget("bash", { action: "start", command: "npm run dev" })).toBe("start: npm run dev");
    expect(toolTarget("bash", { action: "logs", processId: "p1" })).toBe("logs p1");
    expect(toolTarget("grep", { pattern: "TODO", path: "src" })).toBe('src "TODO"');
    expect(toolSummary("bash", { exitCode: 1 })).toBe("exit 1");
    expect(toolSummary("bash", { timedOut: true, exitCode: -1 })).toBe("timed out");
    expect(toolSummary("grep", { matches: [{ path: "a", line: 1, text: "x" }], filesSearched: 2, truncated: false })).toBe("1 match in 2 files searched");
    expect(formatDuration(999)).toBe("999 ms");
    expect(formatDuration(61_000)).toBe("1 min 1 s");
  });
});

describe("ToolCard network line", () => {
  it("names the domains a command reached and refused, and allows a refused one for the session in one click", async () => {
    const allowDomain = vi.fn(async () => {});
    const it: TranscriptItem = {
      ...base, tool: "bash", args: { action: "exec", command: "npm ci" }, running: false, isError: false, durationMs: 10,
      result: { exitCode: 1, stdout: "", stderr: "403", network: { reached: ["registry.npmjs.org"], refused: ["evil.test"] } },
    };
    render(<ChatActionsContext.Provider value={{ openURL: () => {}, openSettings: () => {}, copy: async () => {}, allowDomain }}><ToolCard item={it} /></ChatActionsContext.Provider>);
    const line = screen.getByRole("note", { name: "Network" });
    expect(line.textContent).toContain("reached registry.npmjs.org");
    expect(line.textContent).toContain("Refused evil.test (not on the network allow-list)");
    fireEvent.click(screen.getByRole("button", { name: "Allow evil.test for this session" }));
    expect(allowDomain).toHaveBeenCalledWith("evil.test");
    await waitFor(() => expect(line.textContent).toContain("Allowed for this session"));
    expect(screen.queryByRole("button", { name: /Allow evil.test/ })).toBeNull();
  });

  it("offers to allow the domain a web_fetch was refused in allow-list mode", () => {
    const allowDomain = vi.fn(async () => {});
    const it: TranscriptItem = {
      ...base, tool: "web_fetch", args: { url: "https://docs.rs/x" }, running: false, isError: true,
      result: { ok: false, error: { code: "domain_refused", message: "refused: docs.rs is not on the network allow-list" }, network: { refused: ["docs.rs"] } },
    };
    render(<ChatActionsContext.Provider value={{ openURL: () => {}, openSettings: () => {}, copy: async () => {}, allowDomain }}><ToolCard item={it} /></ChatActionsContext.Provider>);
    fireEvent.click(screen.getByRole("button", { name: "Allow docs.rs for this session" }));
    expect(allowDomain).toHaveBeenCalledWith("docs.rs");
  });

  it("allows a refused domain always only once the user has read what it adds and confirmed; a refusal says why", async () => {
    const allowDomainAlways = vi.fn(async (_: string) => {});
    allowDomainAlways.mockRejectedValueOnce(new Error("the allow-list was not saved: disk full"));
    const allowDomain = vi.fn(async () => {});
    for (const it of [
      { ...base, tool: "bash", args: { action: "exec", command: "npm ci" }, running: false, isError: false, durationMs: 10,
        result: { exitCode: 1, stdout: "", stderr: "403", network: { refused: ["evil.test"] } } },
      { ...base, id: "c2", tool: "web_fetch", args: { url: "https://docs.rs/x" }, running: false, isError: true,
        result: { ok: false, error: { code: "domain_refused", message: "refused" }, network: { refused: ["docs.rs"] } } },
    ] as TranscriptItem[]) {
      cleanup();
      const before = allowDomainAlways.mock.calls.length;
      const d = (it.result as { network: { refused: string[] } }).network.refused[0];
      render(<ChatActionsContext.Provider value={{ openURL: () => {}, openSettings: () => {}, copy: async () => {}, allowDomain, allowDomainAlways }}>
        <ToolCard item={it} /></ChatActionsContext.Provider>);
      fireEvent.click(screen.getByRole("button", { name: `Allow ${d} always…` }));
      const confirm = screen.getByRole("group", { name: `Allow ${d} always` });
      expect(confirm.textContent).toContain(`Adds ${d} to the network allow-list in Settings → Network`);
      expect(confirm.textContent).toContain("not its subdomains");
      expect(allowDomainAlways.mock.calls.length).toBe(before);
      if (d === "evil.test") {
        fireEvent.click(within(confirm).getByRole("button", { name: "Add to the allow-list" }));
        await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("disk full"));
        expect(screen.getByRole("group", { name: `Allow ${d} always` })).toBeTruthy();
        fireEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
        expect(screen.queryByRole("group", { name: `Allow ${d} always` })).toBeNull();
        fireEvent.click(screen.getByRole("button", { name: `Allow ${d} always…` }));
      }
      fireEvent.click(screen.getByRole("button", { name: "Add to the allow-list" }));
      expect(allowDomainAlways).toHaveBeenLastCalledWith(d);
      await waitFor(() => expect(screen.getByRole("note", { name: "Network" }).textContent).toContain("Added to the network allow-list"));
      expect(screen.queryByRole("button", { name: new RegExp(`Allow ${d.replace(".", "\\.")}`) })).toBeNull();
    }
    expect(allowDomain).not.toHaveBeenCalled();
  });

  it("says nothing of the network when a command used no proxy", () => {
    const it: TranscriptItem = { ...base, tool: "bash", args: { action: "exec", command: "ls" }, running: false, result: { exitCode: 0, stdout: "a" } };
    render(<ToolCard item={it} />);
    expect(screen.queryByRole("note", { name: "Network" })).toBeNull();
  });
});
