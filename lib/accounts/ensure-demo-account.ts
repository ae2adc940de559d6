import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { accounts } from "@/lib/db/schema";
import { config } from "@/lib/config";
import { createAccount } from "./create-account";
import { seedMatchingDemo } from "@/lib/services/matching/seed-demo";

export const DEMO_EMAIL = "demo@printstudio.local";
const DEMO_TOKENS = 5_000;

type DemoCredentials = { email: string; password: string };

/**
 * On an empty embedded database, create a demo account (premium, 5,000 tokens)
 * so a newcomer can sign in at once. Its password is kept in DATA_DIR so every
 * later start can print it again. With DATABASE_URL only when DEMO_ACCOUNT=always.
 */
export async function ensureDemoAccount(db: Db): Promise<DemoCredentials | null> {
  const { DEMO_ACCOUNT, DATABASE_URL, dataDir } = config();
  if (DEMO_ACCOUNT === "never" || (DEMO_ACCOUNT === "auto" && DATABASE_URL)) return null;
  const file = path.join(dataDir, "demo-account.json");
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(accounts);
  if (n === 0) {
    const creds = { email: DEMO_EMAIL, password: `studio-${crypto.randomBytes(9).toString("base64url")}` };
    const account = await createAccount(db, { ...creds, name: "Demo Studio", plan: "premium", signupTokens: DEMO_TOKENS });
    // A sample agency ready for face matching; a demo without it is still a demo.
    await seedMatchingDemo(db, account.id).catch((err) => console.error("[demo] the sample face matching agency could not be created:", err));
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
