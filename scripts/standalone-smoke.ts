// Proves the production build runs alone: copies .next/standalone (after
// `npm run build`) into an empty folder, starts it there on the embedded defaults
// (PGlite, local files, embedded runner) with no source tree and no tsx beside it,
// and completes one job of every engine over real HTTP. A worker file or model
// file missing from the trace fails here.
//
//   npm run build && npm run smoke:standalone
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import QRCode from "qrcode";
import { PDFDocument } from "pdf-lib";
import {
  apiClient,
  bluePhoto,
  coffeePhoto,
  copyStandalone,
  expectStatus,
  finishedBgRemoval,
  onePagePdf,
  premiumAccount,
  startStandalone,
  untilEnded,
  upload,
  waitHealthy,
  type Json,
} from "./support/standalone-server";

const OPERATOR_TOKEN = "smoke-operator-token-0123456789";

async function main() {
  const started = Date.now();
  const dir = copyStandalone();
  // Ghostscript's WebAssembly build, as on a machine with only Node and npm (the system gs is tested beside it).
  const server = await startStandalone(dir, { DATA_DIR: path.join(dir, ".data"), OPERATOR_TOKEN, GHOSTSCRIPT_ENGINE: "wasm" });
  const api = apiClient(server.base);
  const results: string[] = [];
  const step = (msg: string) => {
    results.push(msg);
    console.log(`  ok  ${msg} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  try {
    await waitHealthy(server);
    step(`standalone server up from ${dir}`);
    const { token } = await premiumAccount(api, OPERATOR_TOKEN);
    step("account registered, granted and made premium");

    // Background removal: the ONNX worker, its native library and the model weights.
    const created = await api("POST", "/v1/services/bg-remove", { image_url: await upload(api, token, coffeePhoto(), "coffee.png", "image/png") }, token);
    expectStatus(created, 202, "bg-remove");
    const job = await finishedBgRemoval(api, token, created.json.job_id);
    if (job.status !== "completed") throw new Error(`bg-remove failed: ${job.error_message}`);
    const cutout = await sharp(Buffer.from(await (await fetch(job.output_url)).arrayBuffer())).metadata();
    if (!cutout.hasAlpha || cutout.width !== 600) throw new Error(`bg-remove output is not a 600 px RGBA PNG: ${JSON.stringify(cutout)}`);
    step("background removal completed (transparent PNG at full size)");

    // Preflight of a PDF and a JPEG: the analysis worker thread.
    const pdfCheck = await api("POST", "/v1/services/preflight/checks", { designId: "smoke-pdf", fileUrl: await upload(api, token, await onePagePdf(), "flyer.pdf", "application/pdf"), canvasWidthInches: 8, canvasHeightInches: 10 }, token);
    expectStatus(pdfCheck, 201, "preflight PDF");
    if (pdfCheck.json.data.fileType !== "pdf" || pdfCheck.json.data.file.pageCount !== 1) throw new Error(`preflight PDF: ${pdfCheck.text.slice(0, 400)}`);
    const jpegCheck = await api("POST", "/v1/services/preflight/checks", { designId: "smoke-jpeg", fileUrl: await upload(api, token, await bluePhoto(), "photo.jpg", "image/jpeg"), canvasWidthInches: 2, canvasHeightInches: 1.6 }, token);
    expectStatus(jpegCheck, 201, "preflight JPEG");
    if (jpegCheck.json.data.fileType !== "jpeg" || jpegCheck.json.data.status !== "pass") throw new Error(`preflight JPEG: ${jpegCheck.text.slice(0, 400)}`);
    step(`preflight of a PDF (${pdfCheck.json.data.status}) and a JPEG (pass)`);

    // AI fix of the PDF's report: Ghostscript prepress (the system gs, or its WebAssembly build
    // where none is installed), then the re-check through the analysis worker.
    const fix = await api("POST", "/v1/services/preflight/ai-jobs", { preflightReportId: pdfCheck.json.data.reportId }, token);
    expectStatus(fix, 202, "AI fix job");
    const fixed = await untilEnded(async () => (await api("GET", `/v1/services/preflight/ai-jobs/${fix.json.data.jobId}`, undefined, token)).json.data ?? {}, "the AI fix job");
    if (fixed.status !== "completed" || (fixed.recheck?.unfixed ?? []).length > 0) throw new Error(`AI fix job: ${JSON.stringify(fixed).slice(0, 600)}`);
    const corrected = await PDFDocument.load(new Uint8Array(await (await fetch(fixed.correctedFileUrl)).arrayBuffer()));
    if (corrected.getPageCount() !== 1) throw new Error("the corrected PDF lost its page");
    step(`AI fix of the PDF (${fixed.tier}, ${fixed.fixesApplied?.map((f: Json) => f.params?.engine ?? f.fixType).join(", ")}), re-checked`);

    // Bulk QR: the embedded fonts and the PDF writer.
    const qr = await api(
      "POST",
      "/v1/services/studio/qr/generate",
      { job_id: "SMOKE", school_name: "Smoke School", subjects: [{ student_id: "S1", name: "Zoë Ørsted-Nguyễn", class_name: "5A" }, { student_id: "S2", name: "山田 太郎" }] },
      token,
    );
    expectStatus(qr, 200, "bulk QR");
    const qrPdf = await PDFDocument.load(new Uint8Array(await (await fetch(qr.json.pdf_url)).arrayBuffer()));
    if (qrPdf.getPageCount() < 1) throw new Error("bulk QR PDF has no pages");
    step("Bulk QR PDF generated and downloaded");

    // Face crop: the face engine's worker (Human + tfjs wasm + models) synchronously, then
    // an enhance task whose small crop goes through super-resolution (ESRGAN worker).
    const face = fs.readFileSync(path.resolve("test/fixtures/faces/obama.jpg"));
    // With a damaged photo beside it: that file's own error, found by the engine's worker (which
    // the warm-up started from another server bundle), not a 500 for the batch.
    const damaged = face.subarray(0, Math.floor(face.length * 0.3));
    const crop = await api(
      "POST",
      "/v1/services/studio/face-crop",
      { image_urls: [await upload(api, token, face, "ava.jpg", "image/jpeg"), await upload(api, token, damaged, "damaged.jpg", "image/jpeg")], icp_type: "school" },
      token,
    );
    expectStatus(crop, 200, "face crop");
    const first = crop.json.results?.[0];
    if (!first?.output_urls?.original || first.error) throw new Error(`face crop: ${crop.text.slice(0, 400)}`);
    // The crown read from the person matte: the selfie model's files are in the standalone folder.
    if (first.crown_source !== "matte") throw new Error(`face crop: crown_source ${first.crown_source}, expected "matte" (selfie model files missing?)`);
    if (crop.json.results?.[1]?.error?.code !== "UNREADABLE_IMAGE") throw new Error(`damaged photo: ${JSON.stringify(crop.json.results?.[1])}`);
    const cropMeta = await sharp(Buffer.from(await (await fetch(first.output_urls.original)).arrayBuffer())).metadata();
    if (Math.abs(cropMeta.width! / cropMeta.height! - 0.8) > 0.02) throw new Error(`face crop is not 4:5: ${cropMeta.width} x ${cropMeta.height}`);
    // Its school crop (about 324 x 405) is below the print size and within what enhance reaches (4x).
    const tiny = await sharp(face).resize(480, 600).jpeg().toBuffer();
    const task = await api("POST", "/v1/services/studio/face-crop", { image_url: await upload(api, token, tiny, "tiny.jpg", "image/jpeg"), icp_type: "school", enhance: true }, token);
    expectStatus(task, 202, "face crop with enhance");
    const done = await untilEnded(async () => (await api("GET", `/v1/services/studio/jobs/${task.json.task_id}`, undefined, token)).json, "the enhance task");
    if (done.status !== "completed" || done.results?.[0]?.enhancement !== "super_resolution_2x") throw new Error(`enhance task: ${JSON.stringify(done).slice(0, 400)}`);
    step("face crop (4:5 school crop, a damaged photo as its own error) and an enhance task with super-resolution");

    // Face matching on the demo account's sample agency: the seed's photos, the recognition
    // weights and the match job, all read by path from the standalone folder.
    const demo = JSON.parse(fs.readFileSync(path.join(dir, ".data", "demo-account.json"), "utf8")) as { email: string; password: string };
    const demoToken = (await api("POST", "/v1/auth/token", { email: demo.email, password: demo.password })).json.access_token as string;
    const agency = (await api("GET", "/v1/services/studio/agencies", undefined, demoToken)).json.agencies?.find((a: Json) => a.name.startsWith("Demo"));
    if (!agency) throw new Error("the demo account has no sample agency");
    const demoJob = (await api("GET", `/v1/services/studio/agencies/${agency.id}/jobs`, undefined, demoToken)).json.jobs?.[0];
    const refs = await api("POST", "/v1/services/studio/matching/references", { agency_id: agency.id }, demoToken);
    expectStatus(refs, 200, "face matching references");
    if (refs.json.embeddings_total !== 2) throw new Error(`demo references: ${refs.text.slice(0, 400)}`);
    const match = await api("POST", "/v1/services/studio/matching/match-job", { agency_id: agency.id, job_id: demoJob?.id }, demoToken);
    expectStatus(match, 200, "match job");
    const matched = await untilEnded(async () => (await api("GET", `/v1/services/studio/matching/jobs/${match.json.match_job_id}`, undefined, demoToken)).json, "the match job");
    // Demo set: 3 matched, event-2 and the tight headshot event-5 to review (lib/engines/ml/faces/demo-photos/README.md).
    if (matched.status !== "completed" || matched.total_files !== 6 || matched.matched < 3 || matched.matched + matched.needs_review < 5 || matched.failed !== 0) throw new Error(`demo match job: ${JSON.stringify(matched).slice(0, 400)}`);
    step(`face matching on the demo agency: ${matched.matched} matched, ${matched.needs_review} to review, ${matched.unmatched} unmatched of 6 photos`);

    // QR sorting: the card reader's worker and ZXing's WebAssembly, read by path from the standalone folder.
    const school = (await api("POST", "/v1/services/studio/agencies", { name: "Smoke Sort School", agency_type: "school" }, token)).json;
    expectStatus(await api("POST", `/v1/services/studio/agencies/${school.id}/subjects`, { student_id: "S1", name: "Ann Archer" }, token), 201, "subject");
    const shoot = (await api("POST", `/v1/services/studio/agencies/${school.id}/jobs`, { name: "Picture day", icp_type: "school" }, token)).json;
    const qrCard = await QRCode.toBuffer("psqr1:SMOKE:S1", { errorCorrectionLevel: "M", margin: 4, width: 180 });
    const cardFrame = await sharp(face).resize(1000, 1250).composite([{ input: qrCard, left: 600, top: 800 }]).jpeg({ quality: 85 }).toBuffer();
    const frames = new FormData();
    frames.append("file", new File([new Uint8Array(cardFrame)], "IMG_0001.jpg", { type: "image/jpeg" }));
    frames.append("file", new File([new Uint8Array(face)], "IMG_0002.jpg", { type: "image/jpeg" }));
    expectStatus(await api("POST", `/v1/services/studio/agencies/${school.id}/jobs/${shoot.id}/files`, frames, token), 201, "picture day frames");
    const sort = await api("POST", `/v1/services/studio/agencies/${school.id}/jobs/${shoot.id}/qr-sort`, undefined, token);
    expectStatus(sort, 202, "QR sort");
    const sorted = await untilEnded(async () => (await api("GET", `/v1/services/studio/jobs/${sort.json.task_id}`, undefined, token)).json, "the QR sort");
    const filed = (await api("GET", `/v1/services/studio/qr-sort/${sort.json.task_id}/results`, undefined, token)).json.data as Json[] | undefined;
    if (sorted.status !== "completed" || filed?.map((f) => `${f.filename}:${f.role}:${f.student_id}`).join(",") !== "IMG_0001.jpg:card:S1,IMG_0002.jpg:subject:S1") {
      throw new Error(`QR sort: ${JSON.stringify({ sorted, filed }).slice(0, 600)}`);
    }
    step("QR sort: the card frame read by the card reader's worker, the next frame filed under its subject");

    // Links follow the Host the client called, not the address the server is bound to.
    const port = Number(new URL(server.base).port);
    const viaLan = await new Promise<Json>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: "/v1/wallet/transactions?limit=1", headers: { host: `studio.lan:${port}`, authorization: `Bearer ${token}` } }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve(JSON.parse(body) as Json));
      });
      req.on("error", reject);
    });
    if (new URL(viaLan.links?.first ?? "http://none").host !== `studio.lan:${port}`) throw new Error(`links ignore the Host called: ${JSON.stringify(viaLan.links)}`);
    step("links follow the Host the client called");

    // The API description and the reference page's renderer (read from node_modules by path).
    const doc = await api("GET", "/v1/openapi.json");
    expectStatus(doc, 200, "openapi.json");
    const bundle = await fetch(`${server.base}/docs/reference.js`);
    if (!bundle.ok || (await bundle.text()).length < 100_000) throw new Error(`/docs/reference.js answered ${bundle.status}`);
    step(`OpenAPI document (${Object.keys(doc.json.paths ?? {}).length} paths) and the /docs renderer served`);

    console.log(`standalone smoke: all ${results.length} steps passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error(`standalone smoke failed: ${err instanceof Error ? err.message : String(err)}`);
    console.error("--- server output ---\n" + server.output().slice(-6000));
    process.exitCode = 1;
  } finally {
    await server.kill();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

void main();
