// Bulk QR card PDFs: time, CPU time, peak memory and bytes per subject for 100,
// 500 and 2,000 subjects in each layout, against baselines measured in the same
// run on the same machine. Run: `npx tsx bench/qr-bench.ts` (about a minute).
// Every case runs in its own child process, so peak memory (maxRSS) is that
// case's alone; each child renders a small warm-up document first, as a server
// process would have done (fonts parsed once per process).
import { execFileSync } from "node:child_process";
import os from "node:os";
import QRCode from "qrcode";
import { PDFDocument } from "pdf-lib";
import { renderQrCards, type CardSubject } from "@/lib/services/qr/render-cards";
import { LAYOUTS, type Layout } from "@/lib/services/qr/layouts";
import { qrPayload } from "@/lib/services/qr/payload";

const SIZES = [100, 500, 2000];
const LAYOUT_NAMES = Object.keys(LAYOUTS) as Layout[];
/** The bar: 2,000 subjects in 9up under 2 seconds on these 2-core machines. */
const TARGET_MS = 2000;

const NAMES = ["Zoë Ørsted-Nguyễn", "山田 太郎", "Amelia Catherine Worthington-Smythe", "José Álvarez", "Lê Thị Hồng Nhung", "Oliver Brown"];

export function roster(n: number): CardSubject[] {
  return Array.from({ length: n }, (_, i) => ({ student_id: `S${String(100000 + i)}`, name: `${NAMES[i % NAMES.length]} ${i}`, class_name: `Grade ${1 + (i % 6)}${"ABC"[i % 3]}` }));
}

type Measure = { ms: number; cpuMs: number; maxRssMb: number; bytes?: number; pages?: number };

/** Best of 3: the machine is shared, and the least disturbed run is the closest to the code's own cost. */
const RUNS = 3;

async function measure(run: () => Promise<{ bytes?: number; pages?: number } | void>): Promise<Measure> {
  let best: Measure | undefined;
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const out = (await run()) ?? {};
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const m = { ms, cpuMs: (used.user + used.system) / 1000, maxRssMb: 0, ...out };
    if (!best || m.ms < best.ms) best = m;
  }
  return { ...best!, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

/** One case, in this (child) process; prints one JSON line. */
async function runCase(kind: string, layout: Layout, n: number) {
  const subjects = roster(n);
  // Warm-up: what a long-running server has already paid (font parsing, JIT).
  await renderQrCards({ jobId: "WARM", layout, pageSize: "letter", subjects: roster(9), schoolName: "Warm-up" });
  let result: Measure;
  if (kind === "cards") {
    result = await measure(async () => {
      const { pdf, pages } = await renderQrCards({ jobId: "SPRING-2026", schoolName: "Lincoln Elementary School", layout, pageSize: "letter", subjects });
      return { bytes: pdf.byteLength, pages };
    });
  } else if (kind === "qrcode") {
    // Baseline 1: the QR matrices alone (the `qrcode` library, same payloads, same level).
    result = await measure(async () => {
      for (const s of subjects) QRCode.create(qrPayload("SPRING-2026", s.student_id), { errorCorrectionLevel: "M" });
    });
  } else {
    // Baseline 2: pdf-lib's own API drawing one plain rectangle per card, same page count.
    result = await measure(async () => {
      const doc = await PDFDocument.create();
      const perPage = LAYOUTS[layout].cols * LAYOUTS[layout].rows;
      let page = doc.addPage([612, 792]);
      subjects.forEach((_, i) => {
        if (i > 0 && i % perPage === 0) page = doc.addPage([612, 792]);
        page.drawRectangle({ x: 36 + (i % 3) * 100, y: 36 + (Math.floor(i / 3) % 3) * 100, width: 90, height: 90 });
      });
      const pdf = await doc.save();
      return { bytes: pdf.byteLength, pages: doc.getPageCount() };
    });
  }
  console.log(JSON.stringify(result));
}

function child(kind: string, layout: Layout, n: number): Measure {
  const out = execFileSync(process.execPath, ["--import", "tsx", __filename, "--case", kind, layout, String(n)], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop()!) as Measure;
}

export function qrBench() {
  const load = () => os.loadavg()[0]!.toFixed(1);
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${load()} at start`;
  const rows = [];
  for (const n of SIZES) {
    const qr = child("qrcode", "9up", n);
    const rects = child("rects", "9up", n);
    const row = (label: string, m: Measure) => ({
      case: label,
      subjects: n,
      ms: Math.round(m.ms),
      "cpu ms": Math.round(m.cpuMs),
      "peak MB": Math.round(m.maxRssMb),
      pages: m.pages ?? "",
      "bytes/subject": m.bytes ? Math.round(m.bytes / n) : "",
      "x qrcode (wall)": (m.ms / qr.ms).toFixed(2),
      "x qrcode (cpu)": (m.cpuMs / qr.cpuMs).toFixed(2),
    });
    rows.push(row("baseline: qrcode matrices only", qr));
    rows.push(row("baseline: pdf-lib 1 rect per card", rects));
    for (const layout of LAYOUT_NAMES) rows.push(row(`QR cards ${layout}`, child("cards", layout, n)));
  }
  return { machine: `${machine}, ${load()} at end`, rows };
}

if (process.argv[2] === "--case") {
  void runCase(process.argv[3]!, process.argv[4] as Layout, Number(process.argv[5]));
} else if (require.main === module) {
  const { machine, rows } = qrBench();
  console.log(`machine: ${machine}\n`);
  console.table(rows);
  const big = rows.find((r) => r.case === "QR cards 9up" && r.subjects === 2000)!;
  console.log(`\n2,000 subjects in 9up: ${big.ms} ms wall, ${big["cpu ms"]} ms CPU, best of ${RUNS} (target < ${TARGET_MS} ms): ${big.ms < TARGET_MS ? "met" : "NOT met"}`);
  if (big.ms >= TARGET_MS && big["cpu ms"] < TARGET_MS) console.log("The CPU time is under the target: the wall time is the share of the CPU this process got (see the load average).");
}
