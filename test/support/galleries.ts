// Calls of the gallery routes, shared by the gallery tests (and usable by orders' tests).
import { expect } from "vitest";
import * as galleriesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/route";
import * as accessRoute from "@/app/v1/parent/access/route";
import * as previewRoute from "@/app/g/previews/[photoId]/route";
import { eq } from "drizzle-orm";
import { call } from "../http";
import { getDb } from "@/lib/foundation/db/client";
import { jobRuns } from "@/lib/foundation/db/schema";
import { reserveAccessCodes } from "@/lib/services/galleries/reserve-codes";
import { openCode } from "@/lib/services/galleries/access-codes";

const S = "/v1/services/studio";

export const galleriesPath = (agencyId: number, jobId: number) => ({ url: `${S}/agencies/${agencyId}/jobs/${jobId}/galleries`, params: { agencyId: String(agencyId), jobId: String(jobId) } });

export async function publishGalleries(token: string, agencyId: number, jobId: number, body: Record<string, unknown> = {}) {
  const { url, params } = galleriesPath(agencyId, jobId);
  return call(galleriesRoute, "POST", url, { token, params, body });
}

export async function listGalleries(token: string, agencyId: number, jobId: number) {
  const { url, params } = galleriesPath(agencyId, jobId);
  const res = await call(galleriesRoute, "GET", `${url}?limit=100`, { token, params });
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<{ id: string; kind: string; subject_id: string | null; student_id: string | null; access_code: string | null; status: string; photo_count: number; previews_ready: number; expires_at: string | null }>;
}

/** Waits for the gallery-previews job (embedded runner) to render every photo's preview. */
export async function waitForPreviews(token: string, agencyId: number, jobId: number, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const list = await listGalleries(token, agencyId, jobId);
    if (list.every((g) => g.previews_ready === g.photo_count)) return list;
    if (Date.now() > until) throw new Error(`previews not ready: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export const enterCode = (code: string, ip?: string) => call(accessRoute, "POST", "/v1/parent/access", { body: { code }, ip });

/** GET of a preview URL through its route handler (as the browser's <img> would). */
export async function fetchPreview(url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  const photoId = decodeURIComponent(u.pathname.split("/").pop()!);
  const res = await previewRoute.GET(new Request(url, { headers }), { params: Promise.resolve({ photoId }) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * A parent enters the child's code (reserved here) and the gallery-faces job it queues runs
 * to its end (a job runner must be started): that run, or the last state seen at the timeout.
 */
export async function enterCodeAndAwaitGalleryJob(accountId: string, jobId: string, kid: { subjectId: string; galleryId: string }, timeoutMs = 180_000) {
  const db = await getDb();
  const sealed = await db.transaction((tx) => reserveAccessCodes(tx, accountId, Number(jobId), [kid.subjectId]));
  expect((await enterCode(openCode(sealed.get(kid.subjectId)!))).status).toBe(200);
  const runOf = async () => (await db.select().from(jobRuns).where(eq(jobRuns.functionId, "gallery-faces"))).find((r) => (r.eventData as { galleryId: string }).galleryId === kid.galleryId);
  const until = Date.now() + timeoutMs;
  while ((await runOf())?.status !== "completed" && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
  return runOf();
}
