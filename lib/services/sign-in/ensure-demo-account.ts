import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { createAccount } from "@/lib/domain/identity/create-account";

export const DEMO_EMAIL = "demo@printstudio.local";
const DEMO_TOKENS = 5_000;

type DemoCredentials = { email: string; password: string };

/**
 * On an empty embedded database, create a demo account (premium, 5,000 tokens)
 * so a newcomer can sign in at once. Its password is kept in DATA_DIR so every
 * later start can print it again. With DATABASE_URL only when DEMO_ACCOUNT=always.
 * `seed` fills a new demo account with sample data (the caller's: lib/composition/demo).
 */
export async function ensureDemoAccount(db: Db, opts: { seed?: (db: Db, accountId: string) => Promise<unknown> } = {}): Promise<DemoCredentials | null> {
  const { DEMO_ACCOUNT, DATABASE_URL, dataDir } = config();
  if (DEMO_ACCOUNT === "never" || (DEMO_ACCOUNT === "auto" && DATABASE_URL)) return null;
  const file = path.join(dataDir, "demo-account.json");
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(accounts);
  if (n === 0) {
    const creds = { email: DEMO_EMAIL, password: `studio-${crypto.randomBytes(9).toString("base64url")}` };
    const account = await createAccount(db, { ...creds, name: "Demo Studio", plan: "premium", verified: true, signupTokens: DEMO_TOKENS });
    // Sample data; a demo without it is still a demo.
    await opts.seed?.(db, account.id).catch((err) => console.error("[demo] the sample data could not be created:", err));
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
    return creds;
  }
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as DemoCredentials;
  } catch {
    return null;
  }
}
