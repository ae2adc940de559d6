// The engines on each Node.js line users run: the machine's Node (the baseline) and
// the official binaries of 24 and 22 from the npm registry (`.ci/run` fetches them;
// here they are found in NODE24_BIN / NODE22_BIN, or CI's cache folder, and skipped
// visibly when absent). Each version runs the same child: a warm-up, then
// BENCH_RUNS background removals of a 1 MP photo and face detections of the same
// photo, in worker threads as the server runs them.
//
//   npx tsx bench/node-versions-bench.ts        (writes bench/results/node-versions.json)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchImages, peakRssMb, stats } from "./bg-bench-support";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function childPhase() {
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/engines/ml/background-removal");
  const { detectFaces } = await import("@/lib/engines/ml/faces/detect-faces");
  const photo = (await benchImages())["1 MP"];
  const opts = { subjectType: "auto", edgeSoftness: 3, highDetail: false, background: "transparent" } as const;
  await warmUpBackgroundRemoval();
  await detectFaces(photo);
  const bg: number[] = [];
  const faces: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    await removeBackground(photo, opts);
    bg.push(performance.now() - t);
    t = performance.now();
    await detectFaces(photo);
    faces.push(performance.now() - t);
  }
  await shutDownBackgroundRemoval();
  return { node: process.version, bgRemove1Mp: stats(bg), faceDetect1Mp: stats(faces), peakRssMb: peakRssMb() };
}

function cachedBin(major: string): string | undefined {
  const fromEnv = process.env[`NODE${major}_BIN`];
  if (fromEnv) return path.join(fromEnv, "node");
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "print-studio-node");
  const found = fs.existsSync(cache) ? fs.readdirSync(cache).filter((v) => v.startsWith(`${major}.`)).sort().at(-1) : undefined;
  return found ? path.join(cache, found, "package/bin/node") : undefined;
}

function runOn(nodeBin: string) {
  const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
  const out = execFileSync(nodeBin, [tsx, process.argv[1]!, "--phase"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 2 ** 20 });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

async function main() {
  if (process.argv.includes("--phase")) {
    console.log(JSON.stringify(await childPhase()));
    process.exit(0);
  }
  const versions: [string, string | undefined][] = [["machine", process.execPath], ["24", cachedBin("24")], ["22", cachedBin("22")]];
  const rows = [];
  for (const [label, bin] of versions) {
    if (!bin || !fs.existsSync(bin)) {
      console.log(`Node ${label}: skipped (no binary: set NODE${label}_BIN or run .ci/run once to fill its cache)`);
      continue;
    }
    rows.push({ label, ...runOn(bin) });
  }
  const base = rows[0]!;
  console.log(`\n${os.cpus().length} x ${os.cpus()[0]?.model}, load ${os.loadavg()[0]!.toFixed(1)}; ${RUNS} runs each, p50 ms (ratio to ${base.node})`);
  console.log("| Node | bg removal 1 MP | face detection 1 MP | peak RSS MB |\n|---|---|---|---|");
  for (const r of rows) {
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    console.log(`| ${r.node} | ${r.bgRemove1Mp.p50} (${ratio(r.bgRemove1Mp.p50, base.bgRemove1Mp.p50)}) | ${r.faceDetect1Mp.p50} (${ratio(r.faceDetect1Mp.p50, base.faceDetect1Mp.p50)}) | ${r.peakRssMb} |`);
  }
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/node-versions.json", JSON.stringify(rows, null, 2));
}

void main();
