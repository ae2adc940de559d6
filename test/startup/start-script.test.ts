import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MALLOC_TUNABLES } from "../../scripts/malloc-tunables.mjs";

// `npm start` (scripts/start.mjs) in front of a stand-in server.js that reports what it got:
// the launcher is what is tested here; the real server is started by the standalone smoke.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "start-script-"));
fs.mkdirSync(path.join(dist, "standalone"));
fs.writeFileSync(
  path.join(dist, "standalone", "server.js"),
  // The handler goes first: the test signals as soon as the report is printed.
  `process.on("SIGTERM", () => { console.log("stopping on SIGTERM"); process.exit(0); });
   console.log(JSON.stringify({ pid: process.pid, tunables: process.env.GLIBC_TUNABLES ?? null, dataDir: process.env.DATA_DIR }));
   if (process.env.STAND_IN_EXIT) process.exit(Number(process.env.STAND_IN_EXIT));
   setInterval(() => {}, 1000);`,
);
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

function start(env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { NODE_ENV: "production", PATH: process.env.PATH, NEXT_DIST_DIR: dist, DATA_DIR: ".data-start-test", ...env };
  const child = spawn(process.execPath, ["scripts/start.mjs"], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const report = async () => {
    while (!out.includes("}")) await new Promise((r) => setTimeout(r, 20));
    return JSON.parse(out.slice(0, out.indexOf("}") + 1)) as { pid: number; tunables: string | null; dataDir: string };
  };
  return { child, exited, report, output: () => out };
}

describe("npm start", () => {
  it.runIf(process.platform === "linux")("runs the server in a child with glibc's malloc settings, and exits as it does", async () => {
    const s = start({ STAND_IN_EXIT: "3" });
    const got = await s.report();
    expect(got.tunables).toBe(MALLOC_TUNABLES);
    expect(got.pid).not.toBe(s.child.pid);
    expect(got.dataDir).toBe(path.resolve(".data-start-test"));
    expect(await s.exited).toBe(3);
  });

  it.runIf(process.platform === "linux")("passes SIGTERM on, so the server shuts down gracefully", async () => {
    const s = start({});
    await s.report();
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    expect(s.output()).toContain("stopping on SIGTERM");
  });

  it("leaves settings of one's own alone and runs the server in its own process", async () => {
    const s = start({ GLIBC_TUNABLES: "" });
    const got = await s.report();
    expect(got.tunables).toBe("");
    expect(got.pid).toBe(s.child.pid);
    s.child.kill("SIGTERM");
    await s.exited;
  });

  it("gives the Docker image the same settings", () => {
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    expect(dockerfile).toContain(`GLIBC_TUNABLES=${MALLOC_TUNABLES}`);
  });
});
