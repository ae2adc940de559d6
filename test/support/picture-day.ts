// Bulk QR cards from the generate route, cut from its PDF (test/support/picture-day-frames.ts
// draws the frames they are held up in).
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as served from "@/app/files/[...key]/route";
import { call } from "../http";
import { cutCards } from "./picture-day-frames";

export { cameraFrame, captureIso, cutCards, plainQrCard, type FrameSpec } from "./picture-day-frames";

/** Generates the cards through POST /v1/services/studio/qr/generate (4 per page, the free plan's layout) and returns each card as a PNG, by student id. */
export async function bulkQrCards(token: string, jobRef: string, subjects: { student_id: string; name: string }[], dpi = 72): Promise<Map<string, Buffer>> {
  const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: jobRef, layout: "4up", page_size: "letter", subjects } });
  if (res.status !== 200) throw new Error(`qr generate: ${res.status} ${res.text}`);
  const u = new URL(res.json.pdf_url);
  const file = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  return cutCards(new Uint8Array(await file.arrayBuffer()), subjects.map((s) => s.student_id), dpi);
}
