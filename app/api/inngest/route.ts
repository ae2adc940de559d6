import { serve } from "inngest/next";
import { inngest } from "@/lib/domain/jobs/inngest-client";
import { jobFunctions } from "@/inngest/functions";
import { jobsMode, servesInngestFunctions } from "@/lib/domain/jobs/jobs-mode";

export const dynamic = "force-dynamic";
// Model steps can take a while on small machines; Inngest retries a step whose request is cut.
export const maxDuration = 300;

const handler = serve({ client: inngest, functions: jobFunctions.map((j) => j.fn) });

/**
 * Inngest calls this endpoint to sync and run the app's functions. In the
 * embedded mode (no Inngest settings) nothing should call it: answer 404
 * instead of the SDK's 500 about a missing signing key. With INNGEST_SERVE=off
 * the worker app runs the jobs and this endpoint answers 404 too.
 */
function gate(method: keyof typeof handler) {
  return async (req: Request, ctx: unknown) => {
    if (!servesInngestFunctions()) {
      const message =
        jobsMode() === "inngest"
          ? "Jobs run in the worker app (INNGEST_SERVE=off here): sync the worker app's /api/inngest with Inngest."
          : "Jobs run on the embedded runner: set INNGEST_DEV, INNGEST_BASE_URL or INNGEST_SIGNING_KEY to serve Inngest.";
      return Response.json({ error: "NOT_FOUND", message }, { status: 404 });
    }
    return (handler[method] as (req: Request, ctx: unknown) => Promise<Response>)(req, ctx);
  };
}

export const GET = gate("GET");
export const POST = gate("POST");
export const PUT = gate("PUT");
