import path from "node:path";
import { z } from "zod";
import { parseEnv } from "./parse-env";

/**
 * Every environment variable the app reads, parsed once with zod so a typo in a
 * deployment fails loudly at start instead of deep inside a request.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Public origin of the app, used to build absolute URLs (signed file URLs, top_up_url). */
  APP_URL: z.string().url().optional(),
  /** The port the server listens on (Next.js reads it too); links fall back to localhost on it. */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Set by Vercel: the deployment's own host names, the public origin when APP_URL is unset. */
  VERCEL_BRANCH_URL: z.string().optional(),
  VERCEL_URL: z.string().optional(),
  /** Embedded data folder: PGlite database, local file storage, lock file. */
  DATA_DIR: z.string().default(".data"),
  /** How long a start waits for the data folder's lock held by a live process before refusing (a dead holder's lock is taken at once). */
  DATA_DIR_LOCK_WAIT_MS: z.coerce.number().int().min(0).default(35_000),
  /** When set, PostgreSQL through postgres.js instead of the embedded PGlite. */
  DATABASE_URL: z.string().optional(),
  /** postgres.js connections per process. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** Signs sessions, access tokens and file URLs. Generated and kept in DATA_DIR when unset. */
  AUTH_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  /** Tokens a new account starts with: enough to try one background removal (150). */
  SIGNUP_BONUS_TOKENS: z.coerce.number().int().min(0).default(200),
  /** Card payments (Stripe). Without the secret key the billing routes answer 503 BILLING_NOT_CONFIGURED. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** The base URL the Stripe SDK calls instead of https://api.stripe.com (a local stand-in in tests). */
  STRIPE_API_URL: z.string().url().optional(),
  /** The platform's share of each parent's payment to a studio (Stripe Connect application fee), in percent. */
  PLATFORM_FEE_PERCENT: z.coerce.number().min(0).max(100).default(0),
  /** Token packs as JSON: [{ "id", "tokens", "price" (minor units, e.g. cents), "currency" }]; see lib/services/billing/packs.ts for the defaults. */
  TOKEN_PACKS: z.string().optional(),
  /** Premium by monthly subscription: its price (minor units) and currency, the tokens each paid month brings, and the days an unpaid subscription keeps Premium. */
  PREMIUM_MONTHLY_PRICE: z.coerce.number().int().positive().default(2900),
  PREMIUM_CURRENCY: z.string().regex(/^[a-z]{3}$/).default("usd"),
  PREMIUM_MONTHLY_TOKENS: z.coerce.number().int().min(0).default(2000),
  PREMIUM_GRACE_DAYS: z.coerce.number().int().min(0).default(7),
  /** Whom a held account is told to contact (402 ACCOUNT_ON_HOLD): an address or a page. */
  SUPPORT_CONTACT: z.string().min(1).default("the operator of this service"),
  /** Sign-ups per client IP per hour (POST /v1/auth/register). */
  REGISTER_PER_HOUR: z.coerce.number().int().min(1).default(20),
  OPERATOR_TOKEN: z.string().min(16).optional(),
  /** Outgoing mail (password reset, address verification, notices), e.g. smtp://user:pass@host:587 or smtps://...:465. Unset: messages go to the outbox in DATA_DIR (lib/domain/mail). */
  SMTP_URL: z
    .string()
    .url()
    .refine((u) => /^smtps?:$/.test(new URL(u).protocol), "Use an smtp:// or smtps:// URL.")
    .optional(),
  /** The From of every message: an address, or "Name <address>". */
  MAIL_FROM: z
    .string()
    .trim()
    .min(3)
    .refine((v) => /^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(v), "Use an address, or Name <address>.")
    .default("Print Studio <no-reply@printstudio.local>"),
  /** Create (and print) the demo account even when DATABASE_URL is set. */
  DEMO_ACCOUNT: z.enum(["auto", "always", "never"]).default("auto"),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /**
   * The studio's own pages (session cookie), per person: a page fires several reads at once and a
   * picture-day upload two requests per photo, so the API's budget would stop a 300-photo upload.
   */
  RATE_LIMIT_SESSION_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** memory (default), postgres (uses DATABASE_URL) or redis (uses REDIS_URL). */
  RATE_LIMIT_STORE: z.enum(["memory", "postgres", "redis"]).default("memory"),
  REDIS_URL: z.string().optional(),
  /** Finished runs of the embedded job runner are deleted this many days after they end. */
  JOB_RETENTION_DAYS: z.coerce.number().positive().default(14),
  /** Face embeddings (children's biometric data) are deleted this long after the agency last used matching. */
  MATCHING_RETENTION_DAYS: z.coerce.number().positive().default(365),
  /** An AI fix job waiting for its review (options.review) expires this long after it was created, and is refunded. */
  AI_FIX_REVIEW_HOURS: z.coerce.number().positive().default(72),
  /** How long a repeated Idempotency-Key request waits for the first one to answer before a 409 (lib/http/idempotency). */
  IDEMPOTENCY_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(30),
  /** Largest JSON request body, in bytes. */
  MAX_JSON_BYTES: z.coerce.number().int().positive().default(1_000_000),
  MAX_IMAGE_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  MAX_PDF_BYTES: z.coerce.number().int().positive().default(200 * 1024 * 1024),
  /** Comma-separated host names the safe fetcher may reach even when they resolve to private addresses (local development only). */
  FETCH_ALLOW_HOSTS: z.string().default(""),
  FETCH_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
});

export type Config = z.infer<typeof schema> & { dataDir: string };

let cached: Config | undefined;

/** Parsed configuration. Tests may call resetConfig() after changing process.env. */
export function config(): Config {
  if (!cached) {
    const parsed = parseEnv(schema, process.env, "environment");
    cached = { ...parsed, dataDir: path.resolve(parsed.DATA_DIR) };
  }
  return cached;
}

export function resetConfig(): void {
  cached = undefined;
}
