import { jobsMode } from "@/lib/domain/jobs/jobs-mode";

export { vercelOrigin } from "@/lib/foundation/http/app-origin";

/**
 * On Vercel (and other serverless hosts) nothing on local disk outlives a request
 * and no process stays up between requests, so the embedded defaults cannot work:
 * the database, files, job runner and generated secret all need a service.
 * Returns what is missing, in words for whoever reads the deployment's logs;
 * empty when the app is not serverless or is fully configured.
 */
export function serverlessProblems(env: Record<string, string | undefined> = process.env): string[] {
  if (!env.VERCEL) return [];
  const problems: string[] = [];
  if (!env.DATABASE_URL) problems.push("DATABASE_URL: the embedded PGlite database needs a writable, lasting disk; use PostgreSQL (Neon, Supabase, RDS…)");
  if (!env.S3_BUCKET) problems.push("S3_BUCKET (and S3_* credentials): local file storage does not outlive the function; use S3, R2 or another S3-compatible store");
  if (jobsMode(env) !== "inngest") problems.push("INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY: the embedded job runner needs a long-running process; jobs must go to Inngest");
  if (!env.AUTH_SECRET) problems.push("AUTH_SECRET (32+ characters): a generated secret would differ between function instances and sign everyone out");
  return problems;
}
