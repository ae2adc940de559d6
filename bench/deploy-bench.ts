// Deployment figures (issue "Runs where users run it"), after `npm run build`:
//  1. traced size of each server function (what Vercel would upload), trimmed and
//     untrimmed (a second build with TRACE_UNTRIMMED=1 into .next-untrimmed),
//     against Vercel's 250 MB limit;
//  2. cold start of the standalone server to its first completed background
//     removal, beside the bare engine's own cold start (model load + one image) in
//     a fresh process;
//  3. background removals per minute through two instances beside one (PostgreSQL,
//     Redis, S3), same jobs, same machine, same run.
//
//   npm run build && npx tsx bench/deploy-bench.ts      (writes bench/results/deploy.json)
//   BENCH_ONLY=sizes ...                                 (only the traced sizes)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startCluster } from "../scripts/support/cluster";
import {
  apiClient,
  coffeePhoto,
  copyStandalone,
  expectStatus,
  finishedBgRemoval,
  premiumAccount,
  startStandalone,
  upload,
  waitHealthy,
} from "../scripts/support/standalone-server";

const OPERATOR_TOKEN = "bench-operator-token-0123456789";
const VERCEL_LIMIT_MB = 250;
const THROUGHPUT_JOBS = Number(process.env.BENCH_JOBS ?? 8);

function functionSizes(dist: string): { fn: string; mb: number; files: number }[] {
  const rows = [];
  const server = path.join(dist, "server");
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith(".js.nft.json") ? [path.join(dir, e.name)] : []));
  for (const nft of walk(server)) {
    const base = path.dirname(nft);
    const files = (JSON.parse(fs.readFileSync(nft, "utf8")) as { files: string[] }).files.map((f) => path.resolve(base, f)).filter((f) => fs.existsSync(f) && fs.statSync(f).isFile());
    // The function's own bundle counts too.
    const own = nft.replace(/\.nft\.json$/, "");
    const bytes = [...new Set([...files, own])].reduce((s, f) => s + fs.statSync(f).size, 0);
    rows.push({ fn: path.relative(server, own).replace(/\.js$/, ""), mb: +(bytes / 1e6).toFixed(1), files: files.length });
  }
  return rows.sort((a, b) => b.mb - a.mb);
}

async function coldStart() {
  const dir = copyStandalone();
  const t0 = performance.now();
  const server = await startStandalone(dir, { DATA_DIR: path.join(dir, ".data"), OPERATOR_TOKEN, DEMO_ACCOUNT: "never" });
  try {
    await waitHealthy(server);
    const healthyMs = performance.now() - t0;
    const api = apiClient(server.base);
    const { token } = await premiumAccount(api, OPERATOR_TOKEN);
    const res = await api("POST", "/v1/services/bg-remove", { image_url: await upload(api, token, coffeePhoto(), "coffee.png", "image/png") }, token);
    expectStatus(res, 202, "bg-remove");
    const job = await finishedBgRemoval(api, token, res.json.job_id);
    if (job.status !== "completed") throw new Error(job.error_message);
    const firstCutOutMs = performance.now() - t0;
    const engine = JSON.parse(execFileSync("npx", ["tsx", "bench/bg-cold-engine.ts"], { encoding: "utf8" }).trim().split("\n").pop()!) as { ms: number };
    return { serverHealthyMs: Math.round(healthyMs), serverFirstCutOutMs: Math.round(firstCutOutMs), bareEngineColdMs: engine.ms, ratio: +(firstCutOutMs / engine.ms).toFixed(2) };
  } finally {
    await server.kill();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

async function throughput(instances: number) {
  const cluster = await startCluster({ instances, operatorToken: OPERATOR_TOKEN, env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  try {
    const apis = cluster.servers.map((s) => apiClient(s.base));
    const { token } = await premiumAccount(apis[0]!, OPERATOR_TOKEN, 100_000);
    // Let every instance finish its model warm-up, so both runs measure steady work.
    await new Promise((r) => setTimeout(r, 15_000));
    const url = await upload(apis[0]!, token, coffeePhoto(), "coffee.png", "image/png");
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < THROUGHPUT_JOBS; i++) {
      const res = await apis[i % apis.length]!("POST", "/v1/services/bg-remove", { image_url: url }, token);
      expectStatus(res, 202, "bg-remove");
      ids.push(res.json.job_id);
    }
    for (const id of ids) {
      const job = await finishedBgRemoval(apis[0]!, token, id, 600_000);
      if (job.status !== "completed") throw new Error(job.error_message);
    }
    const s = (performance.now() - t0) / 1000;
    return { instances, jobs: THROUGHPUT_JOBS, seconds: +s.toFixed(1), jobsPerMinute: +((THROUGHPUT_JOBS / s) * 60).toFixed(1) };
  } finally {
    await cluster.stop();
  }
}

async function main() {
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  console.log(`machine: ${machine}\n`);

  const trimmed = functionSizes(process.env.NEXT_DIST_DIR ?? ".next");
  if (!fs.existsSync(".next-untrimmed/BUILD_ID")) {
    console.log("building once without the trim (.next-untrimmed) ...");
    // next build adds the other dist folder to tsconfig.json's include: put it back.
    const tsconfig = fs.readFileSync("tsconfig.json", "utf8");
    try {
      execFileSync("npx", ["next", "build"], { env: { ...process.env, NEXT_DIST_DIR: ".next-untrimmed", TRACE_UNTRIMMED: "1" }, stdio: "ignore" });
    } finally {
      fs.writeFileSync("tsconfig.json", tsconfig);
    }
  }
  const untrimmed = new Map(functionSizes(".next-untrimmed").map((r) => [r.fn, r.mb]));
  const sizes = trimmed.slice(0, 6).map((r) => ({ ...r, untrimmedMb: untrimmed.get(r.fn) ?? null, fitsVercel: r.mb <= VERCEL_LIMIT_MB }));
  console.log(`traced size per function (largest first; Vercel's limit ${VERCEL_LIMIT_MB} MB unzipped)`);
  console.table(sizes);

  if (process.env.BENCH_ONLY === "sizes") return;

  console.log("\ncold start: standalone server to its first completed background removal, beside the bare engine's cold start");
  const cold = await coldStart();
  console.table([cold]);

  console.log(`\nthroughput: ${THROUGHPUT_JOBS} background removals through one instance, then two (PostgreSQL, Redis, S3)`);
  const one = await throughput(1);
  const two = await throughput(2);
  console.table([one, two]);
  console.log(`two instances: ${(two.jobsPerMinute / one.jobsPerMinute).toFixed(2)}x one instance's jobs per minute`);

  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/deploy.json", JSON.stringify({ machine, at: new Date().toISOString(), sizes, cold, throughput: [one, two] }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
