import type { Db } from "@/lib/foundation/db/types";
import { ensureDemoAccount } from "@/lib/services/sign-in/ensure-demo-account";
import { seedMatchingDemo } from "@/lib/services/matching/seed-demo";

/**
 * The demo account with its sample data: a face matching agency with a roster,
 * reference portraits and a job of event photos. Start-up code (above both the
 * accounts and the services) puts the two together.
 */
export function ensureDemoStudio(db: Db) {
  return ensureDemoAccount(db, { seed: seedMatchingDemo });
}
