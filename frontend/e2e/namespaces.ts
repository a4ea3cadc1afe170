import { execFileSync } from "node:child_process";

/** Whether bubblewrap makes namespaces here (the sandbox's namespace layer, which hides a denied file from commands). */
export function namespaces(): boolean {
  // make test-landlock-only forces the app to Landlock alone.
  if (process.env.GATEHOUSE_SANDBOX_LAYERS === "landlock") return false;
  try {
    execFileSync("bwrap", ["--unshare-user", "--dev-bind", "/", "/", "--", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
