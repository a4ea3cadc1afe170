import type { SectionProps } from "./sections";

// Sections with nothing to set yet: each says where the thing is handled
// today and what will come here, so the sidebar is complete from the start.

export function ServersSection({ deps }: SectionProps) {
  return (
    <div className="settings-info">
      <p>
        MCP servers are added, edited, restarted and switched off in the <strong>Servers</strong> panel beside the chat, where each
        server's state and tools show live. A change there applies at once.
      </p>
      {deps.showPanel ? (
        <button type="button" className="secondary" onClick={() => deps.showPanel?.("servers")}>Show the Servers panel</button>
      ) : (
        <p className="settings-note">Open a folder to see its servers.</p>
      )}
    </div>
  );
}
