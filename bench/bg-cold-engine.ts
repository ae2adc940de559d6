// Child process of bench/deploy-bench.ts: the bare engine, cold. Loads the model
// and removes one background, as the first job of a fresh server would, without
// the server (no HTTP, database, runner or storage). Prints the milliseconds.
import fs from "node:fs";
import { removeBackground, shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";

async function main() {
  const t0 = performance.now();
  const out = await removeBackground(fs.readFileSync("lib/engines/ml/background-removal/fixtures/coffee.png"), {
    subjectType: "auto",
    edgeSoftness: 3,
    highDetail: false,
    background: "transparent",
  });
  const ms = Math.round(performance.now() - t0);
  await shutDownBackgroundRemoval();
  console.log(JSON.stringify({ ms, bytes: out.png.length }));
}

void main();
