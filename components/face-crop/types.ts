import type { paths } from "@/lib/client/api-client";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";

/** Shapes of the Face Crop endpoints as the studio pages read them, from the OpenAPI document. */
export type CropBox = Done["crop_box"] & object;

type StudioTask = ApiResponse<"/v1/services/studio/jobs/{taskId}", "get">;
/** A Face Crop task (GET /v1/services/studio/jobs/{taskId}); the other studio tasks there carry a `type`. */
export type Task = Extract<StudioTask, { enhance: boolean }>;
/** A Face Crop task in the studio's task list (GET /v1/services/studio/jobs?type=face_crop). */
export type TaskSummary = Extract<ApiResponse<"/v1/services/studio/jobs", "get">["data"][number], { enhance: boolean }>;

type UploadResponses = NonNullable<paths["/v1/services/studio/face-crop/upload"]["post"]>["responses"];
/** 200: the batch cropped at once; 202: a task to follow. */
export type SyncAnswer = UploadResponses[200]["content"]["application/json"];
export type QueuedAnswer = UploadResponses[202]["content"]["application/json"];

export type AnyResult = SyncAnswer["results"][number];
export type FailedResult = Extract<AnyResult, { error: unknown }>;
type Done = Extract<AnyResult, { icp_type: string }>;
type Present<T> = { [K in keyof T]-?: NonNullable<T[K]> };
/**
 * A cropped result with everything the page draws (the boxes, the eye line, the
 * source and crop pictures): the document allows these to be null, isCropped checks them.
 */
export type CropResult = Omit<Done, "face_box" | "landmarks" | "crop_box" | "faces_found" | "output_urls" | "source"> &
  Present<Pick<Done, "face_box" | "landmarks" | "crop_box" | "faces_found">> & { output_urls: Present<Done["output_urls"]>; source: Present<Done["source"]> };

export const isFailed = (r: AnyResult): r is FailedResult => "error" in r;
export function isCropped(r: AnyResult): r is CropResult {
  if (!("icp_type" in r)) return false;
  const { face_box, landmarks, crop_box, faces_found, output_urls: o, source: s } = r;
  return face_box !== null && landmarks !== null && crop_box !== null && faces_found !== null && o.original !== null && o.medium !== null && s.url !== null && s.width !== null && s.height !== null;
}

/** GET /v1/services/studio/jobs/{taskId}, which must be a Face Crop task. */
export async function fetchFaceCropTask(taskId: string): Promise<Task> {
  const task = unwrap(await studioApi.GET("/v1/services/studio/jobs/{taskId}", { params: { path: { taskId } } }));
  if (!("enhance" in task)) throw new Error("This task is not a face crop.");
  return task;
}

export const taskKey = (taskId: string) => ["face-crop", "task", taskId] as const;
