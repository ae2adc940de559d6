import { withAccount } from "@/lib/http/wrappers";
import { BG_REMOVE_COST } from "@/lib/services/bg-remove/pricing";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { createBgRemoveJob } from "@/lib/services/bg-remove/create-bg-remove-job";
import { listBgRemoveJobs } from "@/lib/services/bg-remove/list-bg-remove-jobs";
import { bgRemoveJobListItem, createBgRemoveBody, createdBgRemoveJobResponse, listBgRemoveQuery } from "@/lib/services/bg-remove/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: listBgRemoveQuery, doc: { summary: "The account's background removal jobs, newest first (free)", response: paginatedResponse(bgRemoveJobListItem) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listBgRemoveJobs(db, principal.account.id, { status: query.status }, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "background removal jobs"));
  }),
  POST: withAccount({ body: createBgRemoveBody, doc: { summary: `Remove an image's background (${BG_REMOVE_COST} tokens, asynchronous: poll the job)`, status: 202, billed: true, response: createdBgRemoveJobResponse, examples: { request: { image_url: "https://example.com/photos/portrait.jpg", subject_type: "person" } } } }, async ({ db, principal, body }) =>
    Response.json(await createBgRemoveJob(db, principal.account.id, body), { status: 202 }),
  ),
});
