import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/v1/account/route";
import * as unauthTokenRoute from "@/app/v1/account/unauth-token/route";
import * as apiKeysRoute from "@/app/v1/api-keys/route";
import * as productsRoute from "@/app/v1/products/route";
import * as productRoute from "@/app/v1/products/[id]/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as projectRoute from "@/app/v1/projects/[id]/route";
import * as bgRemoveRoute from "@/app/v1/services/bg-remove/route";
import * as bgRemoveJobRoute from "@/app/v1/services/bg-remove/[jobId]/route";
import * as checksRoute from "@/app/v1/services/preflight/checks/route";
import * as reportRoute from "@/app/v1/services/preflight/checks/[reportId]/route";
import * as aiJobsRoute from "@/app/v1/services/preflight/ai-jobs/route";
import { loadFixJob, stageForReview } from "@/lib/services/fixes/fix-job-steps";
import { fixJobs } from "@/lib/foundation/db/schema";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import * as checkoutRoute from "@/app/v1/billing/checkout/route";
import * as stripeWebhookRoute from "@/app/api/stripe/webhook/route";
import { startStripeStandIn } from "../support/stripe-stand-in";
import * as agencyRoute from "@/app/v1/services/studio/agencies/[agencyId]/route";
import * as jobsRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import * as jobRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/route";
import * as filesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/route";
import * as fileRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/[fileId]/route";
import * as subjectsRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import * as subjectRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import * as portraitsRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/portraits/route";
import * as subjectReferencesRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/references/route";
import * as uploadsRoute from "@/app/v1/uploads/route";
import * as faceCropRoute from "@/app/v1/services/studio/face-crop/route";
import * as faceCropTaskRoute from "@/app/v1/services/studio/jobs/[taskId]/route";
import * as referencesRoute from "@/app/v1/services/studio/matching/references/route";
import * as matchJobCreateRoute from "@/app/v1/services/studio/matching/match-job/route";
import * as matchJobRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/route";
import * as matchResultsRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/results/route";
import { loadReferences, processMatchFile } from "@/lib/services/matching/process-match-file";
import { finishMatchJob } from "@/lib/services/matching/finish-match-job";
import { groupJobFaces } from "@/lib/services/matching/group-job-faces";
import * as webhookEndpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as sheetsRoute from "@/app/v1/price-sheets/route";
import * as promosRoute from "@/app/v1/price-sheets/[id]/promo-codes/route";
import * as gallerySettingsRoute from "@/app/v1/services/studio/gallery-settings/route";
import * as jobSheetRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/price-sheet/route";
import * as connectRoute from "@/app/v1/payments/connect/route";
import * as parentCheckoutRoute from "@/app/v1/parent/checkout/route";
import { billingCheckouts, faceReferences, matchFaces, matchFiles, matchJobs, webhookDeliveries, webhookEndpoints } from "@/lib/foundation/db/schema";
import { queueDelivery } from "@/lib/domain/webhooks/emit";
import * as qrGenerateRoute from "@/app/v1/services/studio/qr/generate/route";
import * as qrGenerationRoute from "@/app/v1/services/studio/qr/generations/[generationId]/route";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import { finishSort, loadSort, readFrames } from "@/lib/services/qr-sort/sort-task";
import * as qrFrameRoute from "@/app/v1/services/studio/qr-sort/[taskId]/results/[fileId]/route";
import * as galleriesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/route";
import * as parentAccessRoute from "@/app/v1/parent/access/route";
import * as parentPhotosRoute from "@/app/v1/parent/galleries/[galleryId]/photos/route";
import { filesNeedingPreviews, renderPreviews } from "@/lib/services/galleries/render-previews";
import * as productionBatchesRoute from "@/app/v1/production/batches/route";
import * as productionBackgroundsRoute from "@/app/v1/production/backgrounds/route";
import { filesToRender, finishBatch } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { faceFixture } from "../support/face-fixtures";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as tokenRoute from "@/app/v1/auth/token/route";
import { loginSessions, printFiles } from "@/lib/foundation/db/schema";
import { addMember } from "@/lib/services/team/members";
import { newId } from "@/lib/foundation/ids";
import { config, resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { basicHeader, productBody } from "../api/core-fixtures";
import { call, testAccount, type CallOptions } from "../http";
import { dynamicSegments, instantiate, METHODS, routeFiles, routePath, type Method, type RouteModule } from "./routes";

// Account A owns one of every resource that has an id in a /v1 path. Account B
// calls every method of every route file with a dynamic segment using A's ids
// (alone, and mixed with B's own ids for nested paths), with every credential B
// has, and a valid body for writes. Each answer must be the 404 envelope, exactly
// what an id that does not exist gets (a 405 for a method the route lacks is the
// same for any id). Afterwards A's and B's resources, both wallets, every table's
// row count and the stored files are as they were. Finally A sends the very same
// requests and they succeed, so B's 404s are about ownership, not the requests.
// The route list is read from app/v1: a new route with a dynamic segment fails
// here until it is mapped to A's resource.

// The sweep makes several hundred calls from one account: lift the per-minute limit here.
process.env.RATE_LIMIT_PER_MINUTE = "1000000";
// Webhook endpoints point at 127.0.0.1 (nothing listens; no runner delivers here).
process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
resetConfig();
resetRateLimiter();

/** In every name A gives its resources: no answer to B may contain it. */
const MARK = "ALICE-PRIVATE";

type Resources = {
  checkoutSessionId: string;
  /** The ledger row of a token pack paid by card (it has a receipt). */
  purchaseTransactionId: string;
  apiKeyId: string;
  apiKey: string;
  uploadUrl: string;
  productId: string;
  projectId: string;
  reportId: string;
  bgJobId: string;
  /** AI fix jobs waiting for approval: one for approve, one for reject, one to read. */
  fixJobId: string;
  fixApproveJobId: string;
  fixRejectJobId: string;
  agencyId: string;
  agencyJobId: string;
  subjectId: string;
  /** An uploaded reference portrait of the subject, and a reference learned from a confirmed match. */
  portraitId: string;
  referenceId: string;
  fileId: string;
  faceTaskId: string;
  faceResultId: string;
  matchJobId: string;
  matchFaceId: string;
  /** The group the job's last step put that face in. */
  matchGroupId: string;
  webhookEndpointId: string;
  /** A finished delivery (redeliver needs one). */
  webhookDeliveryId: string;
  qrGenerationId: string;
  /** A finished QR sort of the agency job's photos. */
  qrSortTaskId: string;
  /** A photographer in the studio (another login), and a pending invitation. */
  memberId: string;
  invitationId: string;
  /** A signed-in session of the owner (POST /v1/auth/token). */
  sessionId: string;
  /** A price sheet (assigned to the agency job) and a promo code of it. */
  priceSheetId: string;
  promoId: string;
  /** Parents' paid orders (through checkout and the Stripe stand-in): one each to move on, refund and cancel. */
  orderId: string;
  refundOrderId: string;
  cancelOrderId: string;
  /** The job's published parent gallery of the subject, a photo in it, and the gallery token its code opens. */
  galleryId: string;
  galleryPhotoId: string;
  parentToken: string;
  /** A ready lab batch of the paid orders (rendered by the job's steps). */
  batchId: string;
  /** A colour background of the studio. */
  backgroundId: string;
  /** A print file of the batch, held for its cut-out (written so: the hold itself is production-composite's subject). */
  printFileId: string;
};
type Party = { name: string; token: string; email: string; password: string; accountId: string; unauthToken: string; r: Resources };

const STUDIO = "services/studio/agencies/[agencyId]";
const agencyId = (r: Resources) => r.agencyId;
const agencyJobId = (r: Resources) => r.agencyJobId;

/**
 * Which of an owner's ids goes in each dynamic segment, by route path: the same name
 * means different things under different routes (`[id]`, `[jobId]`).
 */
const SEGMENTS: Record<string, Record<string, (r: Resources) => string | string[]>> = {
  // Not a resource: any /v1 path without a route. Given a path full of real ids, still the plain 404.
  "[[...path]]": { path: (r) => ["services", "studio", "agencies", r.agencyId, "jobs", r.agencyJobId, "files", r.fileId, "original"] },
  "api-keys/[id]": { id: (r) => r.apiKeyId },
  "products/[id]": { id: (r) => r.productId },
  "projects/[id]": { id: (r) => r.projectId },
  "services/bg-remove/[jobId]": { jobId: (r) => r.bgJobId },
  "services/preflight/checks/[reportId]": { reportId: (r) => r.reportId },
  "services/preflight/ai-jobs/[jobId]": { jobId: (r) => r.fixJobId },
  "services/preflight/ai-jobs/[jobId]/approve": { jobId: (r) => r.fixApproveJobId },
  "services/preflight/ai-jobs/[jobId]/reject": { jobId: (r) => r.fixRejectJobId },
  [STUDIO]: { agencyId },
  [`${STUDIO}/jobs`]: { agencyId },
  [`${STUDIO}/jobs/[jobId]`]: { agencyId, jobId: agencyJobId },
  [`${STUDIO}/jobs/[jobId]/files`]: { agencyId, jobId: agencyJobId },
  [`${STUDIO}/jobs/[jobId]/files/[fileId]`]: { agencyId, jobId: agencyJobId, fileId: (r) => r.fileId },
  [`${STUDIO}/subjects`]: { agencyId },
  [`${STUDIO}/subjects/[subjectId]`]: { agencyId, subjectId: (r) => r.subjectId },
  [`${STUDIO}/subjects/import`]: { agencyId },
  [`${STUDIO}/subjects/[subjectId]/portraits`]: { agencyId, subjectId: (r) => r.subjectId },
  [`${STUDIO}/subjects/[subjectId]/portraits/[portraitId]`]: { agencyId, subjectId: (r) => r.subjectId, portraitId: (r) => r.portraitId },
  [`${STUDIO}/subjects/[subjectId]/references`]: { agencyId, subjectId: (r) => r.subjectId },
  [`${STUDIO}/subjects/[subjectId]/references/[referenceId]`]: { agencyId, subjectId: (r) => r.subjectId, referenceId: (r) => r.referenceId },
  "services/studio/jobs/[taskId]": { taskId: (r) => r.faceTaskId },
  "services/studio/face-crop/results/[resultId]": { resultId: (r) => r.faceResultId },
  "services/studio/matching/jobs/[matchJobId]": { matchJobId: (r) => r.matchJobId },
  "services/studio/matching/jobs/[matchJobId]/results": { matchJobId: (r) => r.matchJobId },
  "services/studio/matching/jobs/[matchJobId]/export": { matchJobId: (r) => r.matchJobId },
  "services/studio/matching/jobs/[matchJobId]/export.zip": { matchJobId: (r) => r.matchJobId },
  "services/studio/matching/jobs/[matchJobId]/faces/[faceId]": { matchJobId: (r) => r.matchJobId, faceId: (r) => r.matchFaceId },
  "services/studio/matching/jobs/[matchJobId]/groups": { matchJobId: (r) => r.matchJobId },
  "services/studio/matching/jobs/[matchJobId]/groups/[group]": { matchJobId: (r) => r.matchJobId, group: (r) => r.matchGroupId },
  "webhook-endpoints/[id]": { id: (r) => r.webhookEndpointId },
  "billing/checkout/[sessionId]": { sessionId: (r) => r.checkoutSessionId },
  "wallet/transactions/[transactionId]/receipt": { transactionId: (r) => r.purchaseTransactionId },
  "webhook-endpoints/[id]/rotate-secret": { id: (r) => r.webhookEndpointId },
  "webhook-endpoints/[id]/test": { id: (r) => r.webhookEndpointId },
  "webhook-endpoints/[id]/deliveries": { id: (r) => r.webhookEndpointId },
  "webhook-endpoints/[id]/deliveries/[deliveryId]/redeliver": { id: (r) => r.webhookEndpointId, deliveryId: (r) => r.webhookDeliveryId },
  "services/studio/qr/generations/[generationId]": { generationId: (r) => r.qrGenerationId },
  [`${STUDIO}/jobs/[jobId]/qr-sort`]: { agencyId, jobId: agencyJobId },
  "services/studio/qr-sort/[taskId]/results": { taskId: (r) => r.qrSortTaskId },
  "services/studio/qr-sort/[taskId]/export": { taskId: (r) => r.qrSortTaskId },
  "services/studio/qr-sort/[taskId]/lab-zip": { taskId: (r) => r.qrSortTaskId },
  "services/studio/qr-sort/[taskId]/pspa": { taskId: (r) => r.qrSortTaskId },
  "services/studio/qr-sort/[taskId]/results/[fileId]": { taskId: (r) => r.qrSortTaskId, fileId: (r) => r.fileId },
  "members/[id]": { id: (r) => r.memberId },
  "invitations/[id]": { id: (r) => r.invitationId },
  "invitations/[id]/resend": { id: (r) => r.invitationId },
  "account/sessions/[id]": { id: (r) => r.sessionId },
  "price-sheets/[id]": { id: (r) => r.priceSheetId },
  "price-sheets/[id]/promo-codes": { id: (r) => r.priceSheetId },
  "price-sheets/[id]/promo-codes/[codeId]": { id: (r) => r.priceSheetId, codeId: (r) => r.promoId },
  [`${STUDIO}/jobs/[jobId]/price-sheet`]: { agencyId, jobId: agencyJobId },
  "orders/[id]": { id: (r) => r.orderId },
  "orders/[id]/refunds": { id: (r) => r.refundOrderId },
  "orders/[id]/cancel": { id: (r) => r.cancelOrderId },
  "orders/[id]/downloads": { id: (r) => r.orderId },
  [`${STUDIO}/jobs/[jobId]/galleries`]: { agencyId, jobId: agencyJobId },
  [`${STUDIO}/jobs/[jobId]/galleries/close`]: { agencyId, jobId: agencyJobId },
  [`${STUDIO}/jobs/[jobId]/galleries/flyer`]: { agencyId, jobId: agencyJobId },
  [`${STUDIO}/jobs/[jobId]/galleries/reopen`]: { agencyId, jobId: agencyJobId },
  [`${STUDIO}/jobs/[jobId]/galleries/send-codes`]: { agencyId, jobId: agencyJobId },
  "parent/galleries/[galleryId]/photos": { galleryId: (r) => r.galleryId },
  "parent/photos/[photoId]": { photoId: (r) => r.galleryPhotoId },
  "parent/photos/[photoId]/face": { photoId: (r) => r.galleryPhotoId },
  "parent/photos/[photoId]/backgrounds/[backgroundId]": { photoId: (r) => r.galleryPhotoId, backgroundId: (r) => r.backgroundId },
  "parent/photos/[photoId]/print-warnings": { photoId: (r) => r.galleryPhotoId },
  "parent/favourites/[photoId]": { photoId: (r) => r.galleryPhotoId },
  "production/batches/[id]": { id: (r) => r.batchId },
  "production/batches/[id]/zip": { id: (r) => r.batchId },
  "production/batches/[id]/slips": { id: (r) => r.batchId },
  "production/orders/[id]/print-files": { id: (r) => r.orderId },
  "production/backgrounds/[id]": { id: (r) => r.backgroundId },
  "production/print-files/[id]": { id: (r) => r.printFileId },
};

let png: Buffer;
let stand: Awaited<ReturnType<typeof startStripeStandIn>>;
let A: Party;
let B: Party;
let GHOST: Resources;

function multipart(bytes: Buffer, name = "photo.png") {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  return form;
}

type Variant = { name: string; opts: () => Partial<CallOptions> };
const NO_BODY_WRITE: Variant = { name: "", opts: () => ({}) };
const rename: Variant = { name: "rename", opts: () => ({ body: { name: "Renamed by B" } }) };

/**
 * A minimal valid request for each write method a route implements, so the answer is
 * about the id, not the body (A sends the same requests at the end and they succeed).
 */
const BODIES: Record<string, Variant[]> = {
  "services/studio/face-crop/results/[resultId] PUT": [{ name: "re-crop", opts: () => ({ body: { crop_box: { x: 10, y: 10, w: 320, h: 400 } } }) }],
  "products/[id] PATCH": [rename],
  "services/studio/matching/jobs/[matchJobId]/faces/[faceId] PATCH": [{ name: "review", opts: () => ({ body: { action: "nobody" } }) }],
  "services/studio/matching/jobs/[matchJobId]/groups/[group] PATCH": [{ name: "group review", opts: () => ({ body: { action: "nobody" } }) }],
  "webhook-endpoints/[id] PATCH": [{ name: "events", opts: () => ({ body: { events: ["wallet.low"] } }) }],
  "webhook-endpoints/[id]/rotate-secret POST": [NO_BODY_WRITE],
  "members/[id] PATCH": [{ name: "role", opts: () => ({ body: { role: "admin" } }) }],
  "invitations/[id]/resend POST": [NO_BODY_WRITE],
  "webhook-endpoints/[id]/test POST": [NO_BODY_WRITE],
  "webhook-endpoints/[id]/deliveries/[deliveryId]/redeliver POST": [NO_BODY_WRITE],
  "projects/[id] PATCH": [rename],
  [`${STUDIO} PATCH`]: [rename, { name: "consent", opts: () => ({ body: { face_matching_enabled: true, consent_confirmed: true } }) }],
  [`${STUDIO}/jobs/[jobId] PATCH`]: [rename],
  [`${STUDIO}/subjects/[subjectId] PATCH`]: [rename],
  "services/preflight/ai-jobs/[jobId]/approve POST": [{ name: "", opts: () => ({ body: {} }) }],
  "services/preflight/ai-jobs/[jobId]/reject POST": [{ name: "", opts: () => ({}) }],
  [`${STUDIO}/jobs/[jobId]/qr-sort POST`]: [NO_BODY_WRITE],
  [`${STUDIO}/jobs/[jobId]/galleries POST`]: [{ name: "publish", opts: () => ({ body: {} }) }],
  [`${STUDIO}/jobs/[jobId]/galleries/close POST`]: [NO_BODY_WRITE],
  [`${STUDIO}/jobs/[jobId]/galleries/reopen POST`]: [{ name: "", opts: () => ({ body: {} }) }],
  [`${STUDIO}/jobs/[jobId]/galleries/send-codes POST`]: [{ name: "send codes", opts: () => ({ body: { resend: true } }) }],
  "parent/favourites/[photoId] PUT": [NO_BODY_WRITE],
  "services/studio/qr-sort/[taskId]/results/[fileId] PATCH": [{ name: "reassign", opts: () => ({ body: { subject_id: A.r.subjectId } }) }],
  [`${STUDIO}/jobs POST`]: [{ name: "new job", opts: () => ({ body: { name: "Planted by B", icp_type: "school" } }) }],
  [`${STUDIO}/subjects POST`]: [{ name: "new subject", opts: () => ({ body: { student_id: "PLANTED-1", name: "Planted by B" } }) }],
  [`${STUDIO}/subjects/import POST`]: [
    { name: "CSV", opts: () => ({ rawBody: "student_id,name\nPLANTED-2,Planted by B\n", headers: { "content-type": "text/csv" } }) },
  ],
  [`${STUDIO}/subjects/[subjectId]/portraits POST`]: [{ name: "multipart portrait", opts: () => ({ rawBody: multipart(faceFixture("obama3.jpg"), "planted.jpg") }) }],
  "price-sheets/[id] PATCH": [rename],
  "price-sheets/[id]/promo-codes POST": [{ name: "promo", opts: () => ({ body: { code: "PLANTED", kind: "amount", value: 100 } }) }],
  // Taking the sheet off A's job (A's own request then lets the sheet be deleted).
  [`${STUDIO}/jobs/[jobId]/price-sheet PUT`]: [{ name: "unassign", opts: () => ({ body: { price_sheet_id: null } }) }],
  "orders/[id] PATCH": [{ name: "in production", opts: () => ({ body: { status: "in_production" } }) }],
  "orders/[id]/refunds POST": [{ name: "whole", opts: () => ({ body: {} }) }],
  "orders/[id]/cancel POST": [{ name: "cancel", opts: () => ({ body: {} }) }],
  "production/batches/[id] PATCH": [{ name: "sent", opts: () => ({ body: { status: "sent" } }) }],
  "production/print-files/[id] PATCH": [{ name: "release the cut-out", opts: () => ({ body: { action: "release_matte" } }) }],
  "orders/[id]/downloads POST": [{ name: "resend", opts: () => ({ body: {} }) }],
  [`${STUDIO}/jobs/[jobId]/files POST`]: [
    { name: "multipart", opts: () => ({ rawBody: multipart(png, "planted.png") }) },
    { name: "JSON url", opts: () => ({ body: { url: B.r.uploadUrl, filename: "planted.png" } }) },
  ],
};
/** The query a route needs to answer its owner (B's requests carry it too, so B's 404 is about the id alone). */
const QUERIES: Record<string, string> = { "parent/photos/[photoId]/print-warnings": "?item_id=print" };
const withQuery = (route: string, at: { url: string; params: Record<string, string | string[]> }) => ({ ...at, url: at.url + (QUERIES[route] ?? "") });
/** For methods a route lacks (405 whatever is sent). */
const ANY_BODY: Variant = { name: "JSON", opts: () => ({ body: { name: "x" } }) };
const NO_BODY: Variant = { name: "", opts: () => ({}) };

const isWrite = (m: Method) => m === "POST" || m === "PUT" || m === "PATCH";
const variantsFor = (route: string, method: Method): Variant[] => BODIES[`${route} ${method}`] ?? (isWrite(method) ? [ANY_BODY] : [NO_BODY]);

type Credential = { name: string; applies: (route: string, method: Method) => boolean; opts: (p: Party) => Partial<CallOptions> };
const CORE = new Set(["products/[id]", "projects/[id]"]);
/** The parent gallery routes take a gallery token only (any studio credential is a 401 there, whatever the id). */
const isParent = (route: string) => route.startsWith("parent/");
/** Every way B can authenticate, on the routes that accept it. */
const CREDENTIALS: Credential[] = [
  { name: "access token", applies: (route) => !isParent(route), opts: (p) => ({ token: p.token }) },
  // A person's own sessions are not the studio's: an API key gets 403 PERSON_REQUIRED there whatever the id (login-sessions.test.ts).
  { name: "API key", applies: (route) => !route.startsWith("account/sessions/") && !isParent(route), opts: (p) => ({ token: p.r.apiKey }) },
  { name: "gallery token", applies: isParent, opts: (p) => ({ token: p.r.parentToken }) },
  { name: "HTTP Basic", applies: (route) => CORE.has(route), opts: (p) => ({ headers: { authorization: basicHeader(p.email, p.password) } }) },
  // The unauth token reads public products only: A's product is public, so only the account scope stands between.
  { name: "unauth token", applies: (route, m) => route === "products/[id]" && m === "GET", opts: (p) => ({ headers: { "x-service-unauth-token": p.unauthToken } }) },
];

async function created(res: Promise<{ status: number; json: any; text: string }>, status: number, what: string) {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 400)}`);
  return r.json;
}

/** One of every resource with an id in a /v1 path, through the real routes. */
async function createResources(name: string, token: string): Promise<Resources> {
  const form = multipart(png);
  const upload = await created(call(uploadsRoute, "POST", "/v1/uploads", { token, rawBody: form }), 201, "upload");
  const key = await created(call(apiKeysRoute, "POST", "/v1/api-keys", { token, body: { name: `${name} key` } }), 201, "API key");
  const product = await created(call(productsRoute, "POST", "/v1/products", { token, body: productBody({ name: `${name} canvas`, is_public: true, width_in: 2, height_in: 2.5, bleed_mm: 0, min_ppi: 1, color_mode: "rgb" }) }), 201, "product");
  const report = await created(call(checksRoute, "POST", "/v1/services/preflight/checks", { token, body: { designId: `${name}-design`, fileUrl: upload.url } }), 201, "preflight report");
  const project = await created(
    call(projectsRoute, "POST", "/v1/projects", { token, body: { name: `${name} project`, product_id: product.id, preflight_report_id: report.data.reportId } }),
    201,
    "project",
  );
  const agency = await created(call(agenciesRoute, "POST", "/v1/services/studio/agencies", { token, body: { name: `${name} agency`, agency_type: "school" } }), 201, "agency");
  const a = String(agency.id);
  const job = await created(
    call(jobsRoute, "POST", `/v1/services/studio/agencies/${a}/jobs`, { token, params: { agencyId: a }, body: { name: `${name} job`, icp_type: "school" } }),
    201,
    "agency job",
  );
  const j = String(job.id);
  const portrait = await created(call(uploadsRoute, "POST", "/v1/uploads", { token, rawBody: multipart(faceFixture("obama.jpg"), `${name}.jpg`) }), 201, "portrait upload");
  const subject = await created(
    call(subjectsRoute, "POST", `/v1/services/studio/agencies/${a}/subjects`, {
      token,
      params: { agencyId: a },
      body: { student_id: "S1", name: `${name} subject`, class_name: "4B", reference_photo_url: portrait.url },
    }),
    201,
    "subject",
  );
  const files = await created(
    call(filesRoute, "POST", `/v1/services/studio/agencies/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, rawBody: multipart(png, `${name}.png`) }),
    201,
    "job file",
  );
  const crop = await created(call(faceCropRoute, "POST", "/v1/services/studio/face-crop", { token, body: { image_url: portrait.url, icp_type: "school" } }), 200, "face crop");
  // No runner runs in this file: the job stays `processing`.
  const bg = await created(call(bgRemoveRoute, "POST", "/v1/services/bg-remove", { token, body: { image_url: upload.url } }), 202, "background removal job");
  // AI fix jobs staged for review by the job's own step (no runner runs here).
  const fixJob = async () => {
    const res = await created(call(aiJobsRoute, "POST", "/v1/services/preflight/ai-jobs", { token, body: { preflightReportId: report.data.reportId, options: { fixTypes: ["sharpen_edges"], review: true } } }), 202, "AI fix job");
    const db = await getDb();
    const [row] = await db.select({ accountId: fixJobs.accountId }).from(fixJobs).where(eq(fixJobs.id, res.data.jobId));
    await stageForReview(db, await loadFixJob(db, res.data.jobId, row!.accountId));
    return res.data.jobId as string;
  };
  const [fixJobId, fixApproveJobId, fixRejectJobId] = [await fixJob(), await fixJob(), await fixJob()];
  // A match job over a photo with a face, matched and ended by the job's own steps (no runner runs here).
  const faceFile = await created(
    call(filesRoute, "POST", `/v1/services/studio/agencies/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, rawBody: multipart(faceFixture("obama2.jpg"), `${name}-face.jpg`) }),
    201,
    "job photo with a face",
  );
  await created(call(agencyRoute, "PATCH", `/v1/services/studio/agencies/${a}`, { token, params: { agencyId: a }, body: { face_matching_enabled: true, consent_confirmed: true } }), 200, "consent");
  await created(call(referencesRoute, "POST", "/v1/services/studio/matching/references", { token, body: { agency_id: agency.id } }), 200, "references");
  const match = await created(call(matchJobCreateRoute, "POST", "/v1/services/studio/matching/match-job", { token, body: { agency_id: agency.id, file_ids: [faceFile.files[0].id] } }), 200, "match job");
  const db = await getDb();
  const [mj] = await db.select().from(matchJobs).where(eq(matchJobs.id, match.match_job_id));
  const [mf] = await db.select({ id: matchFiles.id }).from(matchFiles).where(eq(matchFiles.matchJobId, mj!.id));
  await processMatchFile(db, mj!, mf!.id, await loadReferences(db, mj!.agencyId));
  // Grouped and ended as the job's last step does it (its ZIP is for a finished job).
  await groupJobFaces(db, mj!.id);
  await finishMatchJob(db, { matchJobId: mj!.id, accountId: mj!.accountId, outcome: "completed" });
  const [face] = await db.select({ id: matchFaces.id, group: matchFaces.faceGroup }).from(matchFaces).where(eq(matchFaces.matchJobId, mj!.id));
  const portraits = await created(
    call(portraitsRoute, "POST", `/v1/services/studio/agencies/${a}/subjects/${subject.id}/portraits`, { token, params: { agencyId: a, subjectId: subject.id }, rawBody: multipart(faceFixture("obama.jpg"), `${name}-portrait.jpg`) }),
    201,
    "reference portrait",
  );
  // A reference learned from a confirmed match whose match job is gone (match_face_id null): the review of the face above cannot take it back.
  const [ref] = await db.select().from(faceReferences).where(eq(faceReferences.subjectId, subject.id)).limit(1);
  const referenceId = newId("fref");
  await db.insert(faceReferences).values({ ...ref!, id: referenceId, source: "confirmed_match", portraitId: null, matchFaceId: null });
  // 127.0.0.1 is allowed by FETCH_ALLOW_HOSTS (set above); no runner runs here, so the delivery is marked finished by hand.
  const hook = await created(call(webhookEndpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: "http://127.0.0.1:9/hook", events: ["wallet.low"], description: `${name} hook` } }), 201, "webhook endpoint");
  const [owner] = await db.select({ accountId: webhookEndpoints.accountId }).from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
  const deliveryId = await db.transaction((tx) =>
    queueDelivery(tx, { accountId: owner!.accountId, endpointId: hook.id, type: "webhook.test", payload: { type: "webhook.test", timestamp: new Date().toISOString(), data: {} } }),
  );
  await db.update(webhookDeliveries).set({ status: "succeeded", attempts: 1, nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
  const qr = await created(call(qrGenerateRoute, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: `${name}-cards`, subjects: [{ student_id: "S1", name: "Ada" }] } }), 200, "QR generation");
  // A QR sort of the job's photos, read and filed by the job's own steps (no runner runs here).
  const sort = await created(call(qrSortRoute, "POST", `/v1/services/studio/agencies/${a}/jobs/${j}/qr-sort`, { token, params: { agencyId: a, jobId: j } }), 202, "QR sort");
  const loadedSort = await loadSort(db, sort.task_id, owner!.accountId);
  await readFrames(db, sort.task_id, loadedSort!.frameIds);
  await finishSort(db, sort.task_id, "completed");
  // The job's parent galleries: the plain photo filed under the subject by hand, published, its preview rendered by the job's own step.
  await created(call(qrFrameRoute, "PATCH", `/v1/services/studio/qr-sort/${sort.task_id}/results/${files.files[0].id}`, { token, params: { taskId: sort.task_id, fileId: String(files.files[0].id) }, body: { subject_id: subject.id } }), 200, "frame filed by hand");
  await created(call(galleriesRoute, "POST", `/v1/services/studio/agencies/${a}/jobs/${j}/galleries`, { token, params: { agencyId: a, jobId: j }, body: {} }), 200, "published galleries");
  const pending = await filesNeedingPreviews(db, owner!.accountId, job.id);
  await renderPreviews(db, owner!.accountId, job.id, pending.fileIds);
  const listed = await created(call(galleriesRoute, "GET", `/v1/services/studio/agencies/${a}/jobs/${j}/galleries`, { token, params: { agencyId: a, jobId: j } }), 200, "gallery list");
  const gallery = listed.data.find((g: { subject_id: string | null }) => g.subject_id === subject.id);
  const access = await created(call(parentAccessRoute, "POST", "/v1/parent/access", { body: { code: gallery.access_code } }), 200, "gallery code");
  const galleryPhotos = await created(
    call(parentPhotosRoute, "GET", `/v1/parent/galleries/${gallery.id}/photos`, { token: access.token, params: { galleryId: gallery.id } }),
    200,
    "gallery photos",
  );
  const checkout = await created(call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { pack: "tokens-1000" } }), 200, "checkout session");
  const paidPack = await created(call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { pack: "tokens-1000" } }), 200, "paid checkout session");
  const { payload, header } = stand.signedEvent("checkout.session.completed", await stand.complete(paidPack.session_id));
  await stripeWebhookRoute.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "stripe-signature": header }, body: payload }));
  const [purchase] = await db.select({ id: billingCheckouts.walletTransactionId }).from(billingCheckouts).where(eq(billingCheckouts.id, paidPack.session_id));
  // A second login in the studio (as an accepted invitation adds it), and a pending invitation (its email goes to the outbox).
  const colleague = await testAccount();
  const memberId = newId("mem");
  await addMember(db, { id: memberId, accountId: owner!.accountId, userId: colleague.account.id, role: "photographer" });
  const invitation = await created(call(invitationsRoute, "POST", "/v1/invitations", { token, body: { email: `${name.toLowerCase()}-invitee@example.com`, role: "viewer" } }), 201, "invitation");
  const shop = await paidOrders(name, token, a, j, product.id, access.token, galleryPhotos.data[0].id);
  // A lab batch of those orders, rendered and finished by the job's own steps (no runner runs here).
  const batch = await created(call(productionBatchesRoute, "POST", "/v1/production/batches", { token, body: { shipping: "school", job_id: job.id } }), 202, "lab batch");
  await renderPrintFiles(db, owner!.accountId, await filesToRender(db, owner!.accountId, batch.id));
  if ((await finishBatch(db, owner!.accountId, batch.id)) !== "ready") throw new Error("lab batch: not ready");
  const [held] = await db
    .update(printFiles)
    .set({ status: "held", holdCode: "matte_doubtful", holdReasons: ["The cut-out found no person in this photo."] })
    .where(eq(printFiles.id, (await db.select({ id: printFiles.id }).from(printFiles).where(eq(printFiles.batchId, batch.id)).limit(1))[0]!.id))
    .returning();
  const background = await created(call(productionBackgroundsRoute, "POST", "/v1/production/backgrounds", { token, body: { name: `${name} navy`, color: "#1e3a5f" } }), 201, "background");
  return {
    galleryId: gallery.id,
    galleryPhotoId: galleryPhotos.data[0].id,
    parentToken: access.token,
    ...shop,
    batchId: batch.id,
    backgroundId: background.id,
    printFileId: held!.id,
    sessionId: "",
    memberId,
    invitationId: invitation.id,
    purchaseTransactionId: purchase!.id!,
    checkoutSessionId: checkout.session_id,
    qrGenerationId: qr.id,
    qrSortTaskId: sort.task_id,
    webhookEndpointId: hook.id,
    webhookDeliveryId: deliveryId,
    fixJobId,
    fixApproveJobId,
    fixRejectJobId,
    apiKeyId: key.id,
    apiKey: key.key,
    uploadUrl: upload.url,
    productId: product.id,
    projectId: project.id,
    reportId: report.data.reportId,
    bgJobId: bg.job_id,
    agencyId: a,
    agencyJobId: j,
    subjectId: subject.id,
    portraitId: portraits.portraits[0].id,
    referenceId,
    fileId: String(files.files[0].id),
    faceTaskId: crop.task_id,
    faceResultId: crop.results[0].result_id,
    matchJobId: String(match.match_job_id),
    matchFaceId: face!.id,
    matchGroupId: face!.group!,
  };
}

/**
 * A's shop: a price sheet with a promo code on A's job, A's connected Stripe account,
 * and three orders the subject's parent (the gallery token of the published gallery)
 * paid for a gallery photo through checkout and the stand-in's completed sessions.
 */
async function paidOrders(name: string, token: string, a: string, j: string, productId: string, parent: string, photoId: string) {
  const sheet = await created(
    call(sheetsRoute, "POST", "/v1/price-sheets", { token, body: { name: `${name} sheet`, currency: "usd", items: [{ id: "print", kind: "print", product_id: productId, price: 1500, lab_cost: 300 }, { id: "file", kind: "digital", name: "Digital file", price: 500, lab_cost: 0 }], shipping: [{ id: "school", type: "school", name: "School", batch_date: "2026-12-01" }] } }),
    201,
    "price sheet",
  );
  const promo = await created(call(promosRoute, "POST", `/v1/price-sheets/${sheet.id}/promo-codes`, { token, params: { id: sheet.id }, body: { code: "TEN", kind: "percent", value: 10 } }), 201, "promo code");
  await created(call(jobSheetRoute, "PUT", `/v1/services/studio/agencies/${a}/jobs/${j}/price-sheet`, { token, params: { agencyId: a, jobId: j }, body: { price_sheet_id: sheet.id } }), 200, "job's price sheet");
  // Digital files sold too: the first order's download links can be re-sent.
  await created(call(gallerySettingsRoute, "PUT", "/v1/services/studio/gallery-settings", { token, body: { downloads_enabled: true } }), 200, "gallery settings");
  const connect = await created(call(connectRoute, "POST", "/v1/payments/connect", { token, body: {} }), 200, "Stripe Connect");
  const hook = async (type: string, object: unknown, account: string) => {
    const { payload, header } = stand.signedEvent(type, object, { account });
    const res = await stripeWebhookRoute.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "stripe-signature": header }, body: payload }));
    if (res.status !== 200) throw new Error(`${type}: ${res.status}`);
  };
  await hook("account.updated", await stand.updateAccount(connect.stripe_account_id), connect.stripe_account_id);
  const order = async () => {
    const res = await created(call(parentCheckoutRoute, "POST", "/v1/parent/checkout", { token: parent, body: { email: `${name.toLowerCase()}-parent@example.com`, shipping_option_id: "school", lines: [{ photo_id: photoId, item_id: "print", quantity: 1 }, { photo_id: photoId, item_id: "file", quantity: 1 }] } }), 201, "parent checkout");
    const session = [...stand.sessions.values()].find((s) => s.client_reference_id === res.order_id)!;
    const { stripe_account: account, ...paid } = await stand.complete(session.id);
    await hook("checkout.session.completed", paid, String(account));
    return res.order_id as string;
  };
  return { priceSheetId: sheet.id as string, promoId: promo.id as string, orderId: await order(), refundOrderId: await order(), cancelOrderId: await order() };
}

async function party(name: string): Promise<Party> {
  const acct = await testAccount({ tokens: 10_000, plan: "premium" });
  const r = await createResources(name, acct.token);
  // A second sign-in: a login session with an id in a path.
  await created(call(tokenRoute, "POST", "/v1/auth/token", { body: { email: acct.email, password: acct.password } }), 200, "sign-in");
  const [session] = await (await getDb()).select({ id: loginSessions.id }).from(loginSessions).where(eq(loginSessions.userId, acct.account.id));
  r.sessionId = session!.id;
  const unauth = await created(call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: acct.token }), 200, "unauth token");
  return { name, token: acct.token, email: acct.email, password: acct.password, accountId: acct.account.id, unauthToken: unauth.token, r };
}

/** Ids of the same shape that exist nowhere. */
function ghostOf(r: Resources): Resources {
  const str = (id: string) => id.replace(/_([A-Za-z0-9]+)$/, (_m, tail: string) => `_${"Z".repeat(tail.length)}`);
  return {
    ...r,
    apiKeyId: str(r.apiKeyId),
    productId: str(r.productId),
    projectId: str(r.projectId),
    reportId: str(r.reportId),
    bgJobId: str(r.bgJobId),
    faceTaskId: str(r.faceTaskId),
    faceResultId: str(r.faceResultId),
    matchFaceId: str(r.matchFaceId),
    matchGroupId: str(r.matchGroupId),
    matchJobId: "2147483644",
    webhookEndpointId: str(r.webhookEndpointId),
    webhookDeliveryId: str(r.webhookDeliveryId),
    qrGenerationId: str(r.qrGenerationId),
    qrSortTaskId: str(r.qrSortTaskId),
    checkoutSessionId: str(r.checkoutSessionId),
    purchaseTransactionId: str(r.purchaseTransactionId),
    fixJobId: str(r.fixJobId),
    fixApproveJobId: str(r.fixApproveJobId),
    fixRejectJobId: str(r.fixRejectJobId),
    subjectId: str(r.subjectId),
    portraitId: str(r.portraitId),
    referenceId: str(r.referenceId),
    agencyId: "2147483647",
    agencyJobId: "2147483646",
    fileId: "2147483645",
    memberId: str(r.memberId),
    invitationId: str(r.invitationId),
    sessionId: str(r.sessionId),
    priceSheetId: str(r.priceSheetId),
    promoId: str(r.promoId),
    orderId: str(r.orderId),
    refundOrderId: str(r.refundOrderId),
    cancelOrderId: str(r.cancelOrderId),
    galleryId: str(r.galleryId),
    galleryPhotoId: str(r.galleryPhotoId),
    batchId: str(r.batchId),
    backgroundId: str(r.backgroundId),
    printFileId: str(r.printFileId),
  };
}

/** Signed URLs carry their expiry: compare them without it. */
function unsign<T>(v: T): T {
  return JSON.parse(JSON.stringify(v ?? null).replace(/\?expires=\d+&sig=[\w-]+/g, "?signed")) as T;
}

/** Everything an owner can read about its resources, as the owner reads it. */
async function snapshot(p: Party) {
  const { token, r } = p;
  const read = async (mod: RouteModule, url: string, params: Record<string, string> = {}) => {
    const res = await call(mod, "GET", url, { token, params });
    return { status: res.status, body: unsign(res.json) };
  };
  const studio = `/v1/services/studio/agencies/${r.agencyId}`;
  const keys = await call(apiKeysRoute, "GET", "/v1/api-keys?limit=100", { token });
  return {
    // last_used_at moves whenever the key is used (B's key is one of B's credentials).
    apiKeys: (keys.json.data as Array<{ id: string }>).map((k) => ({ ...k, last_used_at: "(moves with use)" })),
    product: await read(productRoute, `/v1/products/${r.productId}`, { id: r.productId }),
    project: await read(projectRoute, `/v1/projects/${r.projectId}`, { id: r.projectId }),
    report: await read(reportRoute, `/v1/services/preflight/checks/${r.reportId}`, { reportId: r.reportId }),
    bgJob: await read(bgRemoveJobRoute, `/v1/services/bg-remove/${r.bgJobId}`, { jobId: r.bgJobId }),
    faceTask: await read(faceCropTaskRoute, `/v1/services/studio/jobs/${r.faceTaskId}`, { taskId: r.faceTaskId }),
    qrGeneration: await read(qrGenerationRoute, `/v1/services/studio/qr/generations/${r.qrGenerationId}`, { generationId: r.qrGenerationId }),
    agency: await read(agencyRoute, studio, { agencyId: r.agencyId }),
    jobs: await read(jobsRoute, `${studio}/jobs`, { agencyId: r.agencyId }),
    job: await read(jobRoute, `${studio}/jobs/${r.agencyJobId}`, { agencyId: r.agencyId, jobId: r.agencyJobId }),
    files: await read(filesRoute, `${studio}/jobs/${r.agencyJobId}/files`, { agencyId: r.agencyId, jobId: r.agencyJobId }),
    file: await read(fileRoute, `${studio}/jobs/${r.agencyJobId}/files/${r.fileId}`, { agencyId: r.agencyId, jobId: r.agencyJobId, fileId: r.fileId }),
    subjects: await read(subjectsRoute, `${studio}/subjects`, { agencyId: r.agencyId }),
    matchJob: await read(matchJobRoute, `/v1/services/studio/matching/jobs/${r.matchJobId}`, { matchJobId: r.matchJobId }),
    matchResults: await read(matchResultsRoute, `/v1/services/studio/matching/jobs/${r.matchJobId}/results`, { matchJobId: r.matchJobId }),
    subject: await read(subjectRoute, `${studio}/subjects/${r.subjectId}`, { agencyId: r.agencyId, subjectId: r.subjectId }),
    portraits: await read(portraitsRoute, `${studio}/subjects/${r.subjectId}/portraits`, { agencyId: r.agencyId, subjectId: r.subjectId }),
    references: await read(subjectReferencesRoute, `${studio}/subjects/${r.subjectId}/references`, { agencyId: r.agencyId, subjectId: r.subjectId }),
    // The API key still works (not revoked).
    viaApiKey: (await call(accountRoute, "GET", "/v1/account", { token: r.apiKey })).status,
  };
}

function rowsOf(result: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
}

/** Rows per table: B's calls must not have written anything anywhere. */
async function rowCounts() {
  const db = await getDb();
  const tables = rowsOf(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`),
  ).map((t) => String(t.table_name));
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t] = Number(rowsOf(await db.execute(sql`select count(*)::int as n from ${sql.identifier(t)}`))[0]!.n);
  return counts;
}

/** Every stored file and its size (local storage under DATA_DIR/files). */
function storedFiles(dir = path.join(config().dataDir, "files")): Record<string, number> {
  if (!fs.existsSync(dir)) return {};
  const out: Record<string, number> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.statSync(p).size;
    }
  };
  walk(dir);
  return out;
}

async function balances() {
  const db = await getDb();
  return { A: await getBalance(db, A.accountId), B: await getBalance(db, B.accountId) };
}

type Answer = { status: number; json: any; text: string; headers: Headers };
/** What must be identical between A's id and an unknown one. */
const summary = (res: Answer, url: string) => ({
  status: res.status,
  error: res.json?.error,
  message: typeof res.json?.message === "string" ? res.json.message.split(url).join("<path>") : res.json?.message,
  details: res.json?.details,
  allow: res.headers.get("allow"),
});

const routes = routeFiles()
  .map((file) => ({ file, route: routePath(file), segments: dynamicSegments(file) }))
  .filter((r) => r.segments.length > 0)
  .sort((a, b) => a.route.localeCompare(b.route));

let before: { A: Awaited<ReturnType<typeof snapshot>>; B: Awaited<ReturnType<typeof snapshot>>; rows: Record<string, number>; files: Record<string, number>; balances: { A: number; B: number } };
const exercised = new Set<string>();

beforeAll(async () => {
  // Card payments through the Stripe stand-in, so each party has a checkout session.
  stand = await startStripeStandIn({ webhookSecret: "whsec_sweep" });
  Object.assign(process.env, { STRIPE_SECRET_KEY: "sk_test_sweep", STRIPE_WEBHOOK_SECRET: "whsec_sweep", STRIPE_API_URL: stand.url });
  resetConfig();
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();
  A = await party(MARK);
  B = await party("Bob");
  GHOST = ghostOf(A.r);
  before = { A: await snapshot(A), B: await snapshot(B), rows: await rowCounts(), files: storedFiles(), balances: await balances() };
}, 180_000);

describe("another account's ids on every /v1 route with a dynamic segment", () => {
  it("maps every such route to A's resources (a new route fails here until it is mapped)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(14);
    expect(routes.map((r) => r.route)).toEqual(Object.keys(SEGMENTS).sort((a, b) => a.localeCompare(b)));
    for (const { route, segments } of routes) expect(Object.keys(SEGMENTS[route]!).sort(), route).toEqual([...segments].sort());
  });

  it("A really owns what the sweep uses", () => {
    expect(before.A.product).toMatchObject({ status: 200, body: { name: `${MARK} canvas`, is_public: true } });
    expect(before.A.project).toMatchObject({ status: 200, body: { name: `${MARK} project`, product_id: A.r.productId, preflight_report_id: A.r.reportId } });
    expect(before.A.report.status).toBe(200);
    expect(before.A.bgJob).toMatchObject({ status: 200, body: { status: "processing" } });
    expect(before.A.faceTask).toMatchObject({ status: 200, body: { status: "completed", results: [{ faces_found: 1 }] } });
    expect(before.A.agency).toMatchObject({ status: 200, body: { subject_count: 1, job_count: 1 } });
    expect(before.A.job).toMatchObject({ status: 200, body: { file_count: 2 } });
    expect(before.A.matchResults).toMatchObject({ status: 200, body: { data: [{ status: "completed", faces: [{ id: A.r.matchFaceId }] }] } });
    expect(before.A.file.status).toBe(200);
    expect(before.A.subject.status).toBe(200);
    expect(before.A.apiKeys.map((k) => k.id)).toEqual([A.r.apiKeyId]);
    expect(before.A.viaApiKey).toBe(200);
  });

  it.each(routes.map((r) => [r.route, r] as const))("%s: B gets the 404 an unknown id gets, for every method and credential", async (_route, { file, route, segments }) => {
    const map = SEGMENTS[route];
    expect(map, `${route} has no entry in SEGMENTS: map its dynamic segments to A's resource`).toBeDefined();
    const mod = (await import(file)) as RouteModule;
    let notFound = 0;
    const implemented = new Set<Method>(METHODS);
    // Each segment A's or B's own, never all B's (that is B's own resource).
    for (let mask = 0; mask < 2 ** segments.length - 1; mask++) {
      const owner = (name: string) => ((mask >> segments.indexOf(name)) & 1 ? B.r : null);
      const real = withQuery(route, instantiate(file, (name) => map![name]!(owner(name) ?? A.r)));
      const ghost = withQuery(route, instantiate(file, (name) => map![name]!(owner(name) ?? GHOST)));
      const owners = segments.map((s) => `${s}=${owner(s) ? "B" : "A"}`).join(" ");
      for (const method of METHODS) {
        for (const variant of variantsFor(route, method)) {
          for (const cred of CREDENTIALS.filter((c) => c.applies(route, method))) {
            const what = `${cred.name}: ${method} ${real.url} (${owners})${variant.name ? ` with ${variant.name}` : ""}`;
            const send = (params: Record<string, string | string[]>) => {
              const v = variant.opts();
              const c = cred.opts(B);
              return { ...v, ...c, headers: { ...v.headers, ...c.headers }, params };
            };
            const res = await call(mod, method, real.url, send(real.params));
            const unknown = await call(mod, method, ghost.url, send(ghost.params));
            expect(res.text, `${what} shows A's data`).not.toContain(MARK);
            if (res.status === 405) {
              // The route lacks the method: decided before any id is looked at.
              expect(res.json, what).toMatchObject({ error: "METHOD_NOT_ALLOWED", request_id: expect.any(String) });
              expect(res.headers.get("allow")?.split(", "), what).not.toContain(method);
              implemented.delete(method);
            } else {
              expect(res.status, `${what} answered ${res.status}: ${res.text.slice(0, 300)}`).toBe(404);
              expect(res.json, what).toMatchObject({ error: "NOT_FOUND", message: expect.any(String), request_id: expect.any(String) });
              notFound++;
            }
            expect(summary(res, real.url), `${what} differs from an unknown id`).toEqual(summary(unknown, ghost.url));
          }
        }
      }
      if (typeof mod.OPTIONS === "function") {
        // The CORS preflight is static and unauthenticated: identical for any id.
        const preflight = async (url: string, params: Record<string, string | string[]>) => {
          const res = await mod.OPTIONS!(new Request(`http://localhost:3000${url}`, { method: "OPTIONS", headers: { authorization: `Bearer ${B.token}` } }), { params: Promise.resolve(params) });
          return { status: res.status, text: await res.text(), allow: res.headers.get("access-control-allow-methods") };
        };
        expect(await preflight(real.url, real.params), `OPTIONS ${real.url}`).toEqual(await preflight(ghost.url, ghost.params));
      }
    }
    expect(notFound, `${route}: nothing was tried`).toBeGreaterThan(0);
    for (const m of implemented) {
      if (isWrite(m) && route !== "[[...path]]") expect(BODIES[`${route} ${m}`], `${route} ${m}: add a minimal valid body to BODIES`).toBeDefined();
    }
    exercised.add(route);
  }, 120_000);

  it("exercised every route file with a dynamic segment", () => {
    expect([...exercised].sort()).toEqual(routes.map((r) => r.route).sort());
  });

  it("left A's and B's resources, both wallets, every table and every stored file as they were", async () => {
    expect(await snapshot(A)).toEqual(before.A);
    expect(await snapshot(B)).toEqual(before.B);
    expect(await balances()).toEqual(before.balances);
    expect(await rowCounts()).toEqual(before.rows);
    expect(storedFiles()).toEqual(before.files);
  });
});

describe("another account's ids in bodies and queries", () => {
  it("a project cannot use A's product or A's preflight report, and B's project list filtered by A's product is empty", async () => {
    const token = B.token;
    const create = (body: Record<string, unknown>) => call(projectsRoute, "POST", "/v1/projects", { token, body });
    const patch = (body: Record<string, unknown>) => call(projectRoute, "PATCH", `/v1/projects/${B.r.projectId}`, { token, body, params: { id: B.r.projectId } });
    for (const res of [await create({ name: "x", product_id: A.r.productId }), await patch({ product_id: A.r.productId })]) {
      expect(res.status, res.text).toBe(404);
      expect(res.json).toMatchObject({ error: "NOT_FOUND", details: { field: "product_id" } });
    }
    for (const res of [await create({ name: "x", product_id: B.r.productId, preflight_report_id: A.r.reportId }), await patch({ preflight_report_id: A.r.reportId })]) {
      expect(res.status, res.text).toBe(404);
      expect(res.json).toMatchObject({ error: "NOT_FOUND", details: { field: "preflight_report_id" } });
    }
    const list = await call(projectsRoute, "GET", `/v1/projects?product_id=${A.r.productId}`, { token });
    expect(list.status).toBe(200);
    expect(list.json.data).toEqual([]);
    expect(await snapshot(B)).toEqual(before.B);
    expect(await snapshot(A)).toEqual(before.A);
  });
});

describe("the same requests from A, the owner", () => {
  // Deletes last, children before parents (a product in use by a project is a 409).
  const DELETE_ORDER = ["parent/favourites/[photoId]", "price-sheets/[id]/promo-codes/[codeId]", "price-sheets/[id]", `${STUDIO}/jobs/[jobId]/files/[fileId]`, `${STUDIO}/subjects/[subjectId]/portraits/[portraitId]`, `${STUDIO}/subjects/[subjectId]/references/[referenceId]`, `${STUDIO}/subjects/[subjectId]`, "services/preflight/checks/[reportId]", "projects/[id]", "products/[id]", "api-keys/[id]"];

  const REFUSED_WHILE_FULL = new Set([STUDIO, `${STUDIO}/jobs/[jobId]`]);

  it("succeed: B's 404s were about ownership, not about the requests", async () => {
    const deletes: Array<{ route: string; run: () => Promise<void> }> = [];
    const served = new Set<string>(["[[...path]]"]);
    for (const { file, route } of routes) {
      const mod = (await import(file)) as RouteModule;
      const { url, params } = withQuery(route, instantiate(file, (name) => SEGMENTS[route]![name]!(A.r)));
      for (const method of METHODS) {
        for (const variant of variantsFor(route, method)) {
          const run = async () => {
            const res = await call(mod, method, url, { ...variant.opts(), token: isParent(route) ? A.r.parentToken : A.token, params });
            const what = `A: ${method} ${url}${variant.name ? ` with ${variant.name}` : ""} answered ${res.status}: ${res.text.slice(0, 300)}`;
            if (route === "[[...path]]") expect(res.status, what).toBe(404);
            else if (method === "DELETE" && REFUSED_WHILE_FULL.has(route)) {
              // A's agency still holds subjects and photos, its job photos: refused with the reason, as designed.
              expect(res.status, what).toBe(409);
              expect(res.json.error, what).toMatch(/_NOT_EMPTY$/);
              served.add(route);
            } else if (res.status !== 405) {
              expect([200, 201, 202, 204], what).toContain(res.status);
              served.add(route);
            }
          };
          if (method === "DELETE") deletes.push({ route, run });
          else await run();
        }
      }
    }
    const rank = (route: string) => (DELETE_ORDER.includes(route) ? DELETE_ORDER.indexOf(route) : DELETE_ORDER.length);
    for (const { run } of deletes.sort((a, b) => rank(a.route) - rank(b.route))) await run();
    expect([...served].sort()).toEqual(routes.map((r) => r.route).sort());
    // What A's requests did, seen by A: renamed, planted, deleted.
    const after = await snapshot(A);
    expect(after.agency).toMatchObject({ status: 200, body: { subject_count: 2, job_count: 2 } });
    expect(after.job).toMatchObject({ status: 200, body: { file_count: 3 } });
    for (const gone of [after.product, after.project, after.report, after.subject, after.file]) expect(gone.status).toBe(404);
    expect(after.viaApiKey).toBe(401);
    // The parent's face and background-preview routes run the face and cut-out engines on A's photo (model loads included).
  }, 240_000);
});

describe("deleting A's studio", () => {
  it("leaves no row anywhere that names A and no file under A's id; B is as it was", async () => {
    const db = await getDb();
    const name = (await call(accountRoute, "GET", "/v1/account", { token: A.token })).json.name as string;
    expect(Object.keys(storedFiles()).some((f) => f.includes(A.accountId))).toBe(true);
    const remove = () => call(accountRoute, "DELETE", "/v1/account", { token: A.token, body: { confirm_name: name, current_password: A.password } });
    // No job runner works in this file, so A's jobs are still in flight: refused until they end.
    const busy = await remove();
    expect([busy.status, busy.json.error, busy.json.details.running]).toEqual([409, "WORK_IN_PROGRESS", ["background removals", "AI fix jobs", "QR sorts"]]);
    // They end as their time limit would end them.
    await db.execute(sql`update bg_remove_jobs set status = 'failed' where account_id = ${A.accountId} and status in ('pending', 'processing')`);
    await db.execute(sql`update fix_jobs set status = 'failed' where account_id = ${A.accountId} and status in ('analyzing', 'applying')`);
    await db.execute(sql`update qr_sort_tasks set status = 'failed' where account_id = ${A.accountId} and status in ('queued', 'running')`);
    const res = await remove();
    expect(res.status, res.text).toBe(200);
    expect(res.json.files_deleted).toBeGreaterThan(5);
    const tables = rowsOf(
      await db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`),
    ).map((t) => String(t.table_name));
    const naming: Record<string, number> = {};
    for (const t of tables) {
      const n = Number(rowsOf(await db.execute(sql`select count(*)::int as n from ${sql.identifier(t)} as r where r::text like ${`%${A.accountId}%`}`))[0]!.n);
      if (n > 0) naming[t] = n;
    }
    expect(naming).toEqual({});
    expect(Object.keys(storedFiles()).filter((f) => f.includes(A.accountId))).toEqual([]);
    expect(await snapshot(B)).toEqual(before.B);
    expect((await call(accountRoute, "GET", "/v1/account", { token: A.token })).status).toBe(401);
  });
});
