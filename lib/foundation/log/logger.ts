import fs from "node:fs";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

const schema = z.object({
  /** pino levels; `silent` turns logging off. */
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).optional(),
  /** `json` (one object a line, for log collectors) or `pretty` (for a person at a terminal). */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /** Append the log to this file instead of stdout. */
  LOG_FILE: z.string().optional(),
  NODE_ENV: z.string().optional(),
});

/**
 * Field names whose values are never written, wherever they appear in a logged
 * object: a guard for the day someone logs a body or a header by mistake. The
 * request and job lines log chosen fields only (ids, status, durations).
 */
const REDACT = ["password", "token", "access_token", "authorization", "cookie", "secret", "api_key", "key", "signature", "sig"].flatMap((k) => [k, `*.${k}`]);

function createLogger(): Logger {
  const env = parseEnv(schema, process.env, "logging");
  const level = env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "warn" : "info");
  const format = env.LOG_FORMAT ?? (env.NODE_ENV !== "production" && process.stdout.isTTY ? "pretty" : "json");
  const options = { level, base: { service: "print-studio" }, redact: { paths: REDACT, censor: "[redacted]" } };
  // Streams in this process (no transport worker threads: nothing extra to bundle or trace).
  const destination = env.LOG_FILE ? fs.createWriteStream(env.LOG_FILE, { flags: "a" }) : process.stdout;
  return format === "pretty" ? pino(options, pretty({ destination, colorize: !env.LOG_FILE, sync: true })) : pino(options, destination);
}

// One logger per process, created on first use (after the environment is set).
const g = globalThis as unknown as { __printStudioLog?: Logger };
export function logger(): Logger {
  return (g.__printStudioLog ??= createLogger());
}
