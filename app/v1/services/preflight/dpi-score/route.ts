import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { dpiScore } from "@/lib/services/preflight/dpi-score";
import { dpiScoreBody } from "@/lib/services/preflight/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: dpiScoreBody }, async ({ body }) => Response.json({ data: dpiScore(body) })),
});
