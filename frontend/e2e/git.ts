// A git repository in the test's workspace, with the user's identity in the
// backend's HOME (the test's own), committed once.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Makes workspace a repository with its files committed as "first"; returns git run there. */
export function gitRepo(workspace: string, configDir: string): (...args: string[]) => string {
  const home = path.resolve(configDir, "../..");
  fs.writeFileSync(path.join(home, ".gitconfig"), "[user]\n\tname = E2E User\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, encoding: "utf8", env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: "1" } });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "first");
  return git;
}
