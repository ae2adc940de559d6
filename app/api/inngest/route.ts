import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { jobFunctions } from "@/inngest/functions";
import { jobsMode } from "@/lib/jobs/jobs-mode";

export const dynamic = "force-dynamic";
// Model steps can take a while on small machines; Inngest retries a step whose request is cut.
export const maxDuration = 300;

const handler = serve({ client: inngest, functions: jobFunctions.map((j) => j.fn) });

/**
 * Inngest calls this endpoint to sync and run the app's functions. In the
 * embedded mode (no Inngest settings) nothing should call it: answer 404
 * instead of the SDK's 500 about a missing signing key.
 */
function gate(method: keyof typeof handler) {
  return async (req: Request, ctx: unknown) => {
    if (jobsMode() !== "inngest") {
      return Response.json(
        { error: "NOT_FOUND", message: "Jobs run on the embedded runner: set INNGEST_DEV, INNGEST_BASE_URL or INNGEST_SIGNING_KEY to serve Inngest." },
        { status: 404 },
      );
    }
    return (handler[method] as (req: Request, ctx: unknown) => Promise<Response>)(req, ctx);
  };
}

export const GET = gate("GET");
export const POST = gate("POST");
export const PUT = gate("PUT");
