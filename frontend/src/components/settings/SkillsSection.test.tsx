import { cleanup, render, screen, waitFor, fireEvent } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SkillsSection } from "./SkillsSection";
import { SkillsTrust } from "../SkillsTrust";
import { skillsTrustOf } from "../../bridge/skills";
import type { SkillsBackend, SkillsView } from "../../bridge/skills";
import type { SettingsDeps } from "./sections";

const view: SkillsView = {
  skills: [
    { name: "pdf", description: "Fill PDF forms", dir: "/home/u/.agents/skills/pdf", source: "agents", workspace: false,
      warnings: [{ line: 4, message: 'unknown key "version"' }], allowedTools: "Bash(python3:*)" },
    { name: "broken", description: "", dir: "/home/u/.agents/skills/broken", source: "agents", workspace: false,
      problem: { line: 1, message: "no description: the model could not know when to use the skill" } },
    { name: "deploy", description: "Deploys", dir: "/ws/.agents/skills/deploy", source: "workspace-agents", workspace: true, untrusted: true },
  ],
  pending: { Hash: "h1", Files: [".agents/skills/deploy/SKILL.md"], Refused: null },
  claude: false,
};

afterEach(cleanup);

function show(backend: SkillsBackend) {
  const deps = { backend: {} as SettingsDeps["backend"], skills: backend } as SettingsDeps;
  render(<SkillsSection deps={deps} setDirty={() => {}} onSaved={() => {}} goTo={() => {}} />);
}

describe("SkillsSection", () => {
  it("shows a broken skill's reason and line, a warned one's warning, and trusts the workspace's", async () => {
    const trust = vi.fn(() => Promise.resolve());
    const setOn = vi.fn((name: string, on: boolean) => Promise.resolve({ ...view, skills: view.skills!.map((k) => (k.name === name ? { ...k, disabled: !on } : k)) }));
    const setClaude = vi.fn(() => Promise.resolve({ ...view, claude: true }));
    show({ list: () => Promise.resolve(view), trust, setOn, setClaude });
    await waitFor(() => expect(screen.getByText(/Not offered: line 1: no description/)).toBeTruthy());
    expect(screen.getByText(/Warning, line 4: unknown key "version"/)).toBeTruthy();
    expect(screen.getByText(/waiting for you to trust/)).toBeTruthy();
    expect(screen.getByText(/allowed-tools: Bash\(python3:\*\) \(shown only/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Trust the workspace's skills" }));
    await waitFor(() => expect(trust).toHaveBeenCalledWith("h1"));
    fireEvent.click(screen.getByRole("checkbox", { name: "pdf on" }));
    await waitFor(() => expect(setOn).toHaveBeenCalledWith("pdf", false));
    await waitFor(() => expect(screen.getByText("Off")).toBeTruthy());
    fireEvent.click(screen.getByRole("checkbox", { name: /Claude Code/ }));
    await waitFor(() => expect(setClaude).toHaveBeenCalledWith(true));
  });
});

describe("SkillsTrust", () => {
  it("asks for the workspace's skill files, refused ones named, and Trust trusts the shown hash", async () => {
    const trust = vi.fn(() => Promise.resolve());
    const backend = skillsTrustOf({
      list: () => Promise.resolve({ ...view, pending: { Hash: "h9", Files: [".agents/skills/deploy/SKILL.md"], Refused: [{ path: ".agents/skills/deploy/x", reason: "a link" }] } }),
      trust, setOn: vi.fn(), setClaude: vi.fn(),
    });
    render(<SkillsTrust backend={backend} />);
    const banner = await screen.findByRole("alert", { name: "Workspace skills waiting for trust" });
    expect(banner.textContent).toContain(".agents/skills/deploy/SKILL.md");
    expect(banner.textContent).toContain("refused: a link");
    fireEvent.click(screen.getByRole("button", { name: "Trust" }));
    await waitFor(() => expect(trust).toHaveBeenCalledWith("h9"));
  });
});
