import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ChangedFile, DirEntry, FilesBackend } from "../bridge/files";
import type { FsChangedPayload } from "../bridge/protocol.gen";
import { FileTree } from "./FileTree";

afterEach(cleanup);

function entry(path: string, isDir = false, ignored = false): DirEntry {
  return { name: path.split("/").pop()!, path, isDir, size: 1, ignored };
}

/** A fake backend over an in-memory tree; emit() plays an fs.changed event. */
function fakeFiles(tree: Record<string, DirEntry[]>, changed: ChangedFile[] = []) {
  let listeners: Array<(p: FsChangedPayload) => void> = [];
  const files = {
    listDir: vi.fn(async (dir: string) => {
      if (!tree[dir]) throw new Error(`no folder ${dir}`);
      return tree[dir];
    }),
    readFile: vi.fn(async (path: string) => ({ path, content: "package main\n\nfunc main() {}\n", size: 29, binary: false, truncated: false })),
    fileDiff: vi.fn(async (path: string) => ({ change: changed.find((c) => c.path === path)!, diff: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old line\n+new line\n" })),
    changedFiles: vi.fn(async () => changed),
    watchState: vi.fn(async () => ({ watching: true, degraded: false })),
    onFsChanged: (cb: (p: FsChangedPayload) => void) => {
      listeners.push(cb);
      return () => (listeners = listeners.filter((l) => l !== cb));
    },
    onWatchDegraded: () => () => {},
  } satisfies FilesBackend;
  return {
    files,
    emit: (p: FsChangedPayload) => listeners.forEach((l) => l(p)),
    setChanged: (c: ChangedFile[]) => (changed = c),
  };
}

const mod = (path: string, origin: ChangedFile["origin"] = "agent"): ChangedFile => ({
  path, status: "modified", badge: "M", origin, origins: [origin], baselineKnown: true,
});

describe("FileTree", () => {
  it("shows the tree with A / M / D badges in words and dims ignored folders", async () => {
    const { files } = fakeFiles(
      { "": [entry("node_modules", true, true), entry("src", true), entry("main.go")], src: [entry("src/a.go")] },
      [mod("main.go"), { path: "gone.go", status: "deleted", badge: "D", origin: "shell", origins: ["shell"], baselineKnown: true }],
    );
    render(<FileTree files={files} />);
    const tree = await screen.findByRole("tree", { name: "Workspace files" });
    const main = await within(tree).findByRole("button", { name: /main\.go/ });
    expect(within(main).getByLabelText("modified by the agent's file tools").textContent).toBe("M");
    // A deleted file stays visible, struck through, with its D badge.
    const gone = within(tree).getByRole("button", { name: /gone\.go/ });
    expect(within(gone).getByLabelText("deleted by a command the agent ran").textContent).toBe("D");
    expect(within(tree).getByRole("button", { name: "node_modules" }).closest("li")!.className).toContain("ignored");
    // Folders open on click.
    fireEvent.click(within(tree).getByRole("button", { name: /src/ }));
    expect(await within(tree).findByRole("button", { name: /a\.go/ })).toBeTruthy();
    expect(screen.getByRole("list", { name: "Changed files" })).toBeTruthy();
  });

  it("reloads the folders an fs.changed event names", async () => {
    const tree = { "": [entry("a.txt")] };
    const fake = fakeFiles(tree);
    render(<FileTree files={fake.files} />);
    await screen.findByRole("button", { name: /a\.txt/ });
    tree[""] = [entry("a.txt"), entry("new.txt")];
    fake.setChanged([{ path: "new.txt", status: "added", badge: "A", origin: "outside", origins: ["outside"], baselineKnown: true }]);
    fake.emit({ paths: ["new.txt"], kinds: ["create"] });
    const tree2 = screen.getByRole("tree", { name: "Workspace files" });
    const added = await within(tree2).findByRole("button", { name: /^new\.txt/ });
    await waitFor(() => expect(within(added).getByLabelText("added outside Gatehouse")).toBeTruthy());
  });

  it("opens a changed file on its diff, and its content on the File tab", async () => {
    const { files } = fakeFiles({ "": [entry("main.go")] }, [mod("main.go", "outside")]);
    render(<FileTree files={files} />);
    const tree = await screen.findByRole("tree", { name: "Workspace files" });
    fireEvent.click(await within(tree).findByRole("button", { name: /^main\.go/ }));
    const viewer = await screen.findByRole("dialog", { name: "File main.go" });
    const table = await within(viewer).findByRole("group", { name: "Diff of main.go" });
    expect(table.textContent).toContain("removed: ");
    expect(table.textContent).toContain("added: ");
    expect(table.textContent).toContain("new line");
    fireEvent.click(within(viewer).getByRole("tab", { name: "File" }));
    const code = await within(viewer).findByRole("region", { name: "Content of main.go" });
    expect(code.querySelector(".hljs-keyword")?.textContent).toBe("package");
    fireEvent.keyDown(viewer, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});

