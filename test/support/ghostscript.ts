import { execFileSync } from "node:child_process";

/** Whether a system `gs` is installed (Debian ghostscript in CI; a user's quick start has none). */
export function hasSystemGhostscript(): boolean {
  try {
    execFileSync("gs", ["--version"], { stdio: "ignore", timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
