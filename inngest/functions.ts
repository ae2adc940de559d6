import type { AnyJobDefinition } from "@/lib/domain/jobs/types";
import { aiFix, aiFixApplyApproved } from "./fixes";
import { autoTopUp } from "./auto-top-up";
import { bgRemove } from "./bg-remove";
import { faceCrop } from "./face-crop";
import { buildFaceReferences, matchFaces } from "./face-matching";
import { qrSort } from "./qr-sort";
import { galleryPreviews } from "./gallery-previews";
import { galleryFaces } from "./gallery-faces";
import { productionBatch } from "./production";
import { webhookDelivery } from "./webhook-delivery";
import { mailDelivery } from "./mail-delivery";

/**
 * Every job of the app. Served to Inngest at /api/inngest and executed by the
 * embedded runner: add a job here and both runtimes have it.
 */
export const jobFunctions = [bgRemove, faceCrop, aiFix, aiFixApplyApproved, buildFaceReferences, matchFaces, qrSort, galleryPreviews, galleryFaces, productionBatch, webhookDelivery, autoTopUp, mailDelivery] satisfies readonly AnyJobDefinition[];
