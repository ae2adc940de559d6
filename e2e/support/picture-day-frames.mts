// Run by Playwright specs in a child process (`node --import tsx`), like
// decode-qr-cards.mts (pdfjs-dist is an ES module Playwright's transform cannot
// load): cuts a Bulk QR PDF into its cards and writes the frames of a plan, each
// a real photo with the named card held up in it (test/support/picture-day-frames.ts).
// Arguments: the PDF, the student ids in roster order (comma-separated), the
// output folder, and the plan as JSON: [{ name, card?: student id, ...FrameSpec }].
import fs from "node:fs";
import path from "node:path";
import { cameraFrame, cutCards, type FrameSpec } from "../../test/support/picture-day-frames";

const [pdf, ids, outDir, planJson] = process.argv.slice(2);
const cards = await cutCards(new Uint8Array(fs.readFileSync(pdf!)), ids!.split(","));
const plan = JSON.parse(planJson!) as Array<Omit<FrameSpec, "card"> & { card?: string }>;
fs.mkdirSync(outDir!, { recursive: true });
for (const p of plan) {
  const card = p.card ? cards.get(p.card) : undefined;
  if (p.card && !card) throw new Error(`no card for ${p.card} in ${pdf}`);
  fs.writeFileSync(path.join(outDir!, p.name), await cameraFrame({ ...p, card }));
}
process.stdout.write(JSON.stringify(plan.map((p) => p.name)));
