import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { PolicyBackend, PolicyView } from "../../bridge/policy";
import { PermissionsSection } from "./PermissionsSection";
import type { SettingsDeps } from "./sections";

afterEach(cleanup);

const view: PolicyView = {
  rules: [{ id: "p-1", tool: "bash", commands: [["npm", "test"]], summary: "allow: run `npm test`", decision: "allow", layer: "workspace",
    file: "/cfg/policy.d/a.toml", line: 4, uses: { count: 2, last: "2026-01-01T00:00:00Z" } }],
  errors: [{ file: "/w/.gatehouse/policy.toml", line: 6, message: "rule r allows: a workspace's own policy can only tighten" }],
  userFile: "/cfg/policy.toml", workspaceFile: "/cfg/policy.d/a.toml",
};

function backend(): PolicyBackend {
  return {
    list: vi.fn(async () => view),
    remove: vi.fn(async () => ({ ...view, rules: [] })),
    check: vi.fn(async () => ({ decision: "allow" as const, why: "allowed by rule p-1 in the workspace policy (/cfg/policy.d/a.toml)" })),
    audit: vi.fn(async () => [{ time: "2026-01-01T00:00:00Z", session: "s1", callId: "c1", tool: "bash", summary: "bash exec: npm test",
      mode: "manual" as const, by: "policy", decision: "allow", standing: [{ id: "p-1", decision: "allow", layer: "workspace", summary: "x" }] }]),
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

    fireEvent.input(screen.getByLabelText("Command line to test"), { target: { value: "npm test" } });
    fireEvent.click(screen.getByRole("button", { name: "Test" }));
    await waitFor(() => expect(screen.getByText(/allowed by rule p-1/)).toBeTruthy());
    expect(api.check).toHaveBeenCalledWith("npm test");

    fireEvent.click(screen.getByRole("button", { name: "Delete rule p-1" }));
    await waitFor(() => expect(screen.queryByLabelText("rule p-1")).toBeNull());
    expect(api.remove).toHaveBeenCalledWith("p-1");
  });
});
