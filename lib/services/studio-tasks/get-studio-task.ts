import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropTasks, referenceBuilds } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { toPublicTask } from "@/lib/services/face-crop/public-task";
import { getSortTask } from "@/lib/services/qr-sort/sort-task";
import { getMatchJobByTask } from "../matching/match-job-status";
import { toPublicBuild } from "../matching/reference-build-task";

/**
 * GET /v1/services/studio/jobs/{taskId}: every studio task shares this poll URL
 * (contract 2.7): a Face Crop batch, a reference build (type face_references) or
 * a match job's task (type match_job, the match job itself) or a QR sort (type qr_sort).
 */
export async function getStudioTask(db: Db, accountId: string, taskId: string) {
  const [crop] = await db.select().from(faceCropTasks).where(and(eq(faceCropTasks.id, taskId), eq(faceCropTasks.accountId, accountId)));
  if (crop) return toPublicTask(db, crop);
  const [build] = await db.select().from(referenceBuilds).where(and(eq(referenceBuilds.id, taskId), eq(referenceBuilds.accountId, accountId)));
  if (build) return toPublicBuild(build);
  const match = await getMatchJobByTask(db, accountId, taskId);
  if (match) return match;
  const sort = await getSortTask(db, accountId, taskId);
  if (sort) return sort;
  throw notFound("Task");
}
