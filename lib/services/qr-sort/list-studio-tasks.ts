import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropTasks, qrSortTasks } from "@/lib/foundation/db/schema";
import { faceCropListItems, faceCropTaskListItem, listFaceCropTasksQuery } from "@/lib/services/face-crop/list-tasks";
import { sortTaskResponse } from "./schemas";
import { toPublicSort } from "./sort-task";

const TYPES = ["face_crop", "qr_sort"] as const;
type TaskType = (typeof TYPES)[number];

/** GET /v1/services/studio/jobs: the page window, an optional status and an optional type. */
export const listStudioTasksQuery = listFaceCropTasksQuery.extend({
  type: z.enum(TYPES, { error: `type must be one of ${TYPES.join(", ")}.` }).optional(),
});
type Query = z.output<typeof listStudioTasksQuery>;

/** One list item: a Face Crop batch (type face_crop, with thumbnails) or a QR sort (type qr_sort, as its poll shows it). */
export const studioTaskListItem = z.union([faceCropTaskListItem.extend({ type: z.literal("face_crop") }), sortTaskResponse]);

/**
 * The account's Face Crop tasks and QR sorts, newest first. One UNION ALL of
 * (type, id, created_at) picks the page across both tables; only that page's
 * rows are then loaded, each by its own service.
 */
export async function listStudioTasks(db: Db, accountId: string, query: Query, page: { limit: number; offset: number }) {
  const wanted = (t: TaskType) => !query.type || query.type === t;
  const crop: SQL[] = [eq(faceCropTasks.accountId, accountId)];
  const sort: SQL[] = [eq(qrSortTasks.accountId, accountId)];
  if (query.status) {
    crop.push(eq(faceCropTasks.status, query.status));
    sort.push(eq(qrSortTasks.status, query.status));
  }
  const cropRows = db.select({ type: sql<TaskType>`'face_crop'`.as("type"), id: faceCropTasks.id, createdAt: faceCropTasks.createdAt }).from(faceCropTasks).where(and(...crop));
  const sortRows = db.select({ type: sql<TaskType>`'qr_sort'`.as("type"), id: qrSortTasks.id, createdAt: qrSortTasks.createdAt }).from(qrSortTasks).where(and(...sort));
  const both = query.type === "face_crop" ? cropRows : query.type === "qr_sort" ? sortRows : cropRows.unionAll(sortRows);
  const [picked, cropCount, sortCount] = await Promise.all([
    both.orderBy(sql`created_at desc`, sql`id desc`).limit(page.limit).offset(page.offset),
    wanted("face_crop") ? db.$count(faceCropTasks, and(...crop)) : 0,
    wanted("qr_sort") ? db.$count(qrSortTasks, and(...sort)) : 0,
  ]);
  const total = cropCount + sortCount;
  const cropIds = picked.filter((r) => r.type === "face_crop").map((r) => r.id);
  const sortIds = picked.filter((r) => r.type === "qr_sort").map((r) => r.id);
  const [crops, sorts] = await Promise.all([
    cropIds.length ? db.select().from(faceCropTasks).where(and(eq(faceCropTasks.accountId, accountId), inArray(faceCropTasks.id, cropIds))).orderBy(desc(faceCropTasks.createdAt)) : [],
    sortIds.length ? db.select().from(qrSortTasks).where(and(eq(qrSortTasks.accountId, accountId), inArray(qrSortTasks.id, sortIds))) : [],
  ]);
  const byId = new Map<string, z.output<typeof studioTaskListItem>>();
  for (const item of await faceCropListItems(db, accountId, crops)) byId.set(item.task_id, { type: "face_crop" as const, ...item });
  for (const t of sorts) byId.set(t.id, await toPublicSort(db, t));
  return { items: picked.map((r) => byId.get(r.id)).filter((x) => x !== undefined), total };
}
