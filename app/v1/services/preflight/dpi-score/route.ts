import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { dpiScore } from "@/lib/services/preflight/dpi-score";
import { dpiScoreBody, dpiScoreResponse } from "@/lib/services/preflight/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: dpiScoreBody, doc: { summary: "How sharp a pixel size prints at a canvas size (free)", response: dpiScoreResponse } }, async ({ body }) => Response.json({ data: dpiScore(body) })),
});
