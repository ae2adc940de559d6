import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/foundation/db/client";
import { config } from "@/lib/foundation/config";

const run = promisify(execFile);

// The CLI is a separate process; it gets its own data folder (or this file's
// PostgreSQL database) so it never fights this test process for the lock.
function cli(args: string[], env: Record<string, string>) {
  return run("npx", ["tsx", "scripts/cli.ts", ...args], { env: { ...process.env, ...env }, cwd: process.cwd() }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe("operator CLI", () => {
  it("creates an account, grants tokens and changes the plan", async () => {
    // The sign-up bonus is set here so the balances below do not depend on its default.
    const env: Record<string, string> = { SIGNUP_BONUS_TOKENS: "100", ...(process.env.DATABASE_URL ? {} : { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cli-")) }) };
    const created = await cli(["create-account", "--email", "cli@example.com", "--name", "Cli", "--password", "a long passphrase"], env);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "cli@example.com", plan: "free" });
    const granted = await cli(["grant", "--email", "cli@example.com", "--tokens", "250", "--reason", "Welcome pack"], env);
    expect(JSON.parse(granted.stdout)).toMatchObject({ type: "grant", amount: 250, balance_after: 350, note: "Welcome pack" });
    const plan = await cli(["plan", "--email", "cli@example.com", "--plan", "premium"], env);
    expect(JSON.parse(plan.stdout).plan).toBe("premium");
    const bad = await cli(["grant", "--email", "cli@example.com", "--tokens", "-3", "--reason", "x"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("tokens");
    // The email outbox: counts by status and the messages, newest first; a wrong status is named.
    const mail = await cli(["mail", "--status", "failed"], env);
    expect(mail.code, mail.stderr).toBe(0);
    expect(JSON.parse(mail.stdout)).toMatchObject({ counts: expect.any(Object), total: 0, messages: [] });
    const wrong = await cli(["mail", "--status", "lost"], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("status");
  }, 180_000);

  it.runIf(!process.env.DATABASE_URL)("refuses to open an embedded database another process holds", async () => {
    await getDb(); // this test process now holds DATA_DIR
    const res = await cli(["plan", "--email", "x@example.com", "--plan", "free"], { DATA_DIR: config().dataDir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("already in use by another process");
  }, 180_000);
});
