import type { TrustBackend } from "../bridge/agents";
import type { PendingSkillFile } from "../bridge/skills";
import { TrustPrompt } from "./TrustPrompt";

/**
 * The prompt for the workspace's own Agent Skills (.agents/skills,
 * .gatehouse/skills) while the folder is not trusted for them, or any file
 * of them changed since (the agent's own edit too): every file of every
 * skill folder.
 */
export function SkillsTrust({ backend, refresh, onTrusted }: { backend: TrustBackend<PendingSkillFile>; refresh?: unknown; onTrusted?: () => void }) {
  return (
    <TrustPrompt backend={backend} refresh={refresh} onTrusted={onTrusted}
      label="Workspace skills waiting for trust" fileLabel={(p) => `Skill file ${p}`}
      intro={<>This folder has its own skills for the model (<code>.agents/skills/</code>, <code>.gatehouse/skills/</code>):</>}
      describe={() => null}
      caution="A skill's instructions steer the model and its scripts are there to be run. Trust them only if you trust this folder."
      refusedNote="These files are never loaded: a skill's files must be regular files in the folder, not links." />
  );
}
