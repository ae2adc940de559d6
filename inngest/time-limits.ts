import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);

/**
 * Each paid job's time limit, from acceptance to result, queue time included:
 * past it the job fails and is refunded. Read once when the job functions load.
 */
const settings = parseEnv(
  z.object({
    BG_REMOVE_TIME_LIMIT_SECONDS: seconds(600),
    FACE_CROP_TIME_LIMIT_SECONDS: seconds(3600),
    AI_FIX_TIME_LIMIT_SECONDS: seconds(900),
  }),
  process.env,
  "job time limits",
);

export const TIME_LIMITS_MS = {
  bgRemove: Math.round(settings.BG_REMOVE_TIME_LIMIT_SECONDS * 1000),
  faceCrop: Math.round(settings.FACE_CROP_TIME_LIMIT_SECONDS * 1000),
  /** Each half of a reviewed job (before and after approval) has its own. */
  aiFix: Math.round(settings.AI_FIX_TIME_LIMIT_SECONDS * 1000),
};
