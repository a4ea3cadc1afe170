import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { PolicyBackend, PolicyView } from "../../bridge/policy";
import { PermissionsSection } from "./PermissionsSection";
import type { SettingsDeps } from "./sections";

afterEach(cleanup);

const view: PolicyView = {
  rules: [{ id: "p-1", tool: "bash", commands: [["npm", "test"]], summary: "allow: run `npm test`", decision: "allow", layer: "workspace",
    file: "/cfg/policy.d/a.toml", line: 4, uses: { count: 2, last: "2026-01-01T00:00:00Z" },
    written: { decision: "allow", tool: "bash", commands: ["npm test"], match: ["npm test"] } },
  ],
  errors: [{ file: "/w/.gatehouse/policy.toml", line: 6, message: "rule r allows: a workspace's own policy can only tighten" }],
  userFile: "/cfg/policy.toml", workspaceFile: "/cfg/policy.d/a.toml",
};

function backend(): PolicyBackend {
  return {
    list: vi.fn(async () => view),
    remove: vi.fn(async () => ({ ...view, rules: [] })),
    add: vi.fn(async () => view),
    edit: vi.fn(async () => view),
    trustFile: vi.fn(async () => ({ ...view, untrusted: undefined })),
    check: vi.fn(async () => ({ decision: "allow" as const, why: "allowed by rule p-1 in the workspace policy (/cfg/policy.d/a.toml)" })),
    audit: vi.fn(async () => [{ time: "2026-01-01T00:00:00Z", session: "s1", callId: "c1", tool: "bash", summary: "bash exec: npm test",
      mode: "manual" as const, by: "policy", decision: "allow", standing: [{ id: "p-1", decision: "allow", layer: "workspace", summary: "x" }] },
    { time: "2026-01-01T00:00:01Z", session: "s1", callId: "c2", tool: "grep", summary: "grep TOKEN (1 hidden by the user's policy)",
      mode: "auto" as const, by: "policy", decision: "deny", hidden: 1 }]),
    exportAudit: vi.fn(async () => ""),
  };
}

describe("Settings → Permissions", () => {
  it("lists each rule with its layer, file and uses, shows a refused file, tests a command, deletes, and lists the audit log", async () => {
    const api = backend();
    const deps = { policy: api } as unknown as SettingsDeps;
    render(<PermissionsSection deps={deps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    const rule = await screen.findByLabelText("rule p-1");
    expect(rule.textContent).toContain("workspace policy");
    expect(rule.textContent).toContain("/cfg/policy.d/a.toml:4");
    expect(rule.textContent).toContain("decided 2 times");
    expect(screen.getByText(/can only tighten/).textContent).toContain("/w/.gatehouse/policy.toml:6");
    const audit = within(screen.getByRole("region", { name: "Audit log" }));
    await waitFor(() => expect(audit.getByText("bash exec: npm test")).toBeTruthy());
    expect(audit.getByText(/allow by p-1 \(workspace\)/)).toBeTruthy();
    // What the policy hid from a call that ran: a denial by your policy.
    expect(audit.getByText("grep TOKEN (1 hidden by the user's policy)").closest("tr")?.textContent).toContain("deny by your policy");

    fireEvent.input(screen.getByLabelText("Command line to test"), { target: { value: "npm test" } });
    fireEvent.click(screen.getByRole("button", { name: "Test" }));
    await waitFor(() => expect(screen.getByText(/allowed by rule p-1/)).toBeTruthy());
    expect(api.check).toHaveBeenCalledWith("bash", "npm test");
    // Another tool: the field asks for a path.
    fireEvent.input(screen.getByLabelText("Tool to test"), { target: { value: "apply_patch" } });
    fireEvent.input(screen.getByLabelText("Path to test (empty: the tool as a whole)"), { target: { value: "docs/a.md" } });
    fireEvent.click(screen.getByRole("button", { name: "Test" }));
    await waitFor(() => expect(api.check).toHaveBeenCalledWith("apply_patch", "docs/a.md"));

    // No built-in list: what safe runs unasked is said as what a plan reads.
    expect(screen.getByText("What safe runs unasked and plan mode offers").closest("details")?.textContent).toContain("A plan that changes a file or runs a command asks in safe");

    fireEvent.click(screen.getByRole("button", { name: "Delete rule p-1" }));
    await waitFor(() => expect(screen.queryByLabelText("rule p-1")).toBeNull());
    expect(api.remove).toHaveBeenCalledWith("p-1");
  });
});

describe("Settings → Permissions: editing", () => {
  it("edits a rule in its form; a refused edit says why and keeps the draft; a good one closes the form", async () => {
    const api = backend();
    (api.edit as ReturnType<typeof vi.fn>)
      .mockRejectedValueOnce(new Error("policy: p-1 would not load, so nothing was changed: rule 1: match example \"npm test\" is not matched"))
      .mockResolvedValueOnce(view);
    render(<PermissionsSection deps={{ policy: api } as unknown as SettingsDeps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: "Edit rule p-1" }));
    const form = within(screen.getByRole("form", { name: "Edit rule p-1" }));
    const commands = form.getByLabelText(/^Commands, one a line/) as HTMLTextAreaElement;
    expect(commands.value).toBe("npm test");
    expect((form.getByLabelText(/^Must match/) as HTMLTextAreaElement).value).toBe("npm test");
    fireEvent.input(commands, { target: { value: "npm run test:*" } });
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    await waitFor(() => expect(form.getByRole("alert").textContent).toContain("is not matched"));
    expect(api.edit).toHaveBeenLastCalledWith("p-1", expect.objectContaining({ decision: "allow", tool: "bash", commands: ["npm run test:*"], match: ["npm test"] }));
    expect(commands.value).toBe("npm run test:*");

    fireEvent.input(form.getByLabelText(/^Must match/), { target: { value: "npm run test:unit" } });
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    await waitFor(() => expect(screen.queryByRole("form", { name: "Edit rule p-1" })).toBeNull());
    expect(api.edit).toHaveBeenLastCalledWith("p-1", expect.objectContaining({ commands: ["npm run test:*"], match: ["npm run test:unit"] }));
  });

  it("adds a rule for everywhere, and trusts the workspace's own file as shown", async () => {
    const api = backend();
    (api.list as ReturnType<typeof vi.fn>).mockResolvedValue({ ...view, untrusted: "/w/.gatehouse/policy.toml", untrustedText: "[[rule]]\ndecision = \"deny\"", untrustedHash: "h1" });
    render(<PermissionsSection deps={{ policy: api } as unknown as SettingsDeps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    const pending = within(await screen.findByRole("group", { name: "Workspace policy waiting for trust" }));
    expect(pending.getByText(/decision = "deny"/)).toBeTruthy();
    fireEvent.click(pending.getByRole("button", { name: "Trust this file" }));
    await waitFor(() => expect(api.trustFile).toHaveBeenCalledWith("h1"));
    fireEvent.click(screen.getByRole("button", { name: "Add a rule…" }));
    const form = within(screen.getByRole("form", { name: "New rule" }));
    fireEvent.change(form.getByLabelText("Decision"), { target: { value: "deny" } });
    fireEvent.input(form.getByLabelText(/^Commands, one a line/), { target: { value: "git push **\n\n" } });
    fireEvent.input(form.getByLabelText("Reason"), { target: { value: "pushes go through review" } });
    fireEvent.click(form.getByLabelText("everywhere"));
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    await waitFor(() => expect(api.add).toHaveBeenCalledWith(expect.objectContaining({ decision: "deny", tool: "bash", commands: ["git push **"], reason: "pushes go through review" }), "everywhere"));

  });
});

describe("Settings → Permissions: path rules", () => {
  it("adds a read deny on .env for any tool, refusing an incomplete one before sending it", async () => {
    const api = backend();
    render(<PermissionsSection deps={{ policy: api } as unknown as SettingsDeps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: "Add a rule…" }));
    const form = within(screen.getByRole("form", { name: "New rule" }));
    fireEvent.change(form.getByLabelText("Decision"), { target: { value: "deny" } });
    fireEvent.click(form.getByRole("checkbox", { name: /^Any tool/ }));
    expect(form.queryByLabelText("Tool")).toBeNull();
    // No paths: refused here, nothing sent.
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    expect(form.getByRole("alert").textContent).toContain("Any tool needs at least one path");
    expect(api.add).not.toHaveBeenCalled();
    fireEvent.input(form.getByLabelText(/^Paths, one a line/), { target: { value: " .env \n\nkeys/**" } });
    // An allow of paths for any tool: refused here too.
    fireEvent.change(form.getByLabelText("Decision"), { target: { value: "allow" } });
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    expect(form.getByRole("alert").textContent).toContain("for deny and ask rules");
    expect(api.add).not.toHaveBeenCalled();
    fireEvent.change(form.getByLabelText("Decision"), { target: { value: "deny" } });
    fireEvent.change(form.getByLabelText("Access"), { target: { value: "read" } });
    const reason = form.getByLabelText("Reason");
    fireEvent.input(reason, { target: { value: "secrets stay out" } });
    fireEvent.submit(reason.closest("form")!);
    await waitFor(() => expect(api.add).toHaveBeenCalledWith({ decision: "deny", tool: "", paths: [".env", "keys/**"], access: "read",
      reason: "secrets stay out", match: [], notMatch: [] }, "workspace"));
    await waitFor(() => expect(screen.queryByRole("form", { name: "New rule" })).toBeNull());
  });

  it("shows the backend's refusal and keeps the draft; a path rule edits as a path rule", async () => {
    const api = backend();
    const pathRule = { id: "p-3", tool: "*", files: [".env"], access: "any", decision: "deny", layer: "user", file: "/cfg/policy.toml", line: 2,
      summary: "deny: read or change .env (every tool)", uses: { count: 0, last: "0001-01-01T00:00:00Z" },
      written: { decision: "deny", tool: "", paths: [".env"], access: "any", reason: "secrets" } };
    (api.list as ReturnType<typeof vi.fn>).mockResolvedValue({ ...view, rules: [pathRule] });
    (api.edit as ReturnType<typeof vi.fn>).mockRejectedValueOnce(new Error("policy: p-3 would not load, so nothing was changed: rule 1: path \"/etc/x\" is absolute"));
    render(<PermissionsSection deps={{ policy: api } as unknown as SettingsDeps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: "Edit rule p-3" }));
    const form = within(screen.getByRole("form", { name: "Edit rule p-3" }));
    expect((form.getByRole("checkbox", { name: /^Any tool/ }) as HTMLInputElement).checked).toBe(true);
    expect((form.getByLabelText("Access") as HTMLSelectElement).value).toBe("any");
    const paths = form.getByLabelText(/^Paths, one a line/) as HTMLTextAreaElement;
    expect(paths.value).toBe(".env");
    fireEvent.input(paths, { target: { value: "/etc/x" } });
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    await waitFor(() => expect(form.getByRole("alert").textContent).toContain("is absolute"));
    expect(paths.value).toBe("/etc/x");
    expect(api.edit).toHaveBeenCalledWith("p-3", expect.objectContaining({ tool: "", paths: ["/etc/x"], access: "any" }));
  });
});

describe("Settings → Permissions: domain rules", () => {
  it("shows a web_fetch rule's domain in its form, saves a changed domain, and tests a URL", async () => {
    const api = backend();
    const domainRule = { id: "p-2", tool: "web_fetch", domain: "example.com", decision: "allow", layer: "user", file: "/cfg/policy.toml", line: 2,
      summary: "allow: web_fetch any URL on example.com (this exact domain, not its subdomains)", uses: { count: 0, last: "0001-01-01T00:00:00Z" },
      written: { decision: "allow", tool: "web_fetch", domain: "example.com", match: ["https://example.com/a"] } };
    (api.list as ReturnType<typeof vi.fn>).mockResolvedValue({ ...view, rules: [domainRule] });
    render(<PermissionsSection deps={{ policy: api } as unknown as SettingsDeps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    expect((await screen.findByLabelText("rule p-2")).textContent).toContain("any URL on example.com (this exact domain");
    fireEvent.click(screen.getByRole("button", { name: "Edit rule p-2" }));
    const form = within(screen.getByRole("form", { name: "Edit rule p-2" }));
    const domain = form.getByLabelText(/^Domain/) as HTMLInputElement;
    expect(domain.value).toBe("example.com");
    fireEvent.input(domain, { target: { value: " *.example.com " } });
    fireEvent.input(form.getByLabelText(/^Must match/), { target: { value: "https://docs.example.com/" } });
    fireEvent.click(form.getByRole("button", { name: "Save rule" }));
    await waitFor(() => expect(api.edit).toHaveBeenCalledWith("p-2", expect.objectContaining({ tool: "web_fetch", domain: "*.example.com",
      match: ["https://docs.example.com/"] })));

    fireEvent.input(screen.getByLabelText("Tool to test"), { target: { value: "web_fetch" } });
    fireEvent.input(screen.getByLabelText("URL to test"), { target: { value: "https://docs.example.com/x" } });
    fireEvent.click(screen.getByRole("button", { name: "Test" }));
    await waitFor(() => expect(api.check).toHaveBeenCalledWith("web_fetch", "https://docs.example.com/x"));
  });
  it("tests a path on every route and says what stays open", async () => {
    const api = backend();
    api.check = vi.fn(async () => ({ decision: "deny", why: "deny by rule env in the user policy: secrets stay out",
      routes: [{ route: "read_file", decision: "deny", why: "deny by rule env" }, { route: "grep, glob, list_dir", decision: "deny", why: "left out of their results" },
        { route: "commands", decision: "deny", why: "the sandbox hides it from every command" }],
      staysOpen: ["git's objects: a committed copy stays readable through git (git show HEAD:.env)"] }));
    const deps = { policy: api } as unknown as SettingsDeps;
    render(<PermissionsSection deps={deps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
    await screen.findByLabelText("rule p-1");
    fireEvent.input(screen.getByLabelText("Tool to test"), { target: { value: "read_file" } });
    fireEvent.input(screen.getByLabelText("Path to test (empty: the tool as a whole)"), { target: { value: ".env" } });
    fireEvent.click(screen.getByRole("button", { name: "Test" }));
    const routes = await screen.findByRole("list", { name: "Every route" });
    expect(routes.textContent).toContain("grep, glob, list_dir: deny");
    expect(routes.textContent).toContain("commands: deny");
    expect(routes.textContent).toContain("stays open: git's objects");
  });
});
