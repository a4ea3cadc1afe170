import { TrustedFolders } from "../TrustedFolders";
import type { SectionProps } from "./sections";

/** Settings → Trusted folders: what each folder is trusted for, with Revoke. */
export function TrustedFoldersSection({ deps }: SectionProps) {
  if (!deps.trusted) {
    return (
      <p className="settings-note">
        A folder's own MCP servers and agent definitions load only after you trust it; Gatehouse asks in a banner when you open such a
        folder.
      </p>
    );
  }
  return <TrustedFolders backend={deps.trusted} />;
}
