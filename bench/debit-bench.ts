// 500 concurrent 150-token debits against one wallet, on whichever driver the
// environment selects (DATABASE_URL set: PostgreSQL; else PGlite in DATA_DIR).
// Prints one JSON line for bench/run.ts.
import { eq, sum } from "drizzle-orm";
import { dbHandle } from "@/lib/foundation/db/client";
import { walletTransactions } from "@/lib/foundation/db/schema";
import { createAccount } from "@/lib/domain/identity/create-account";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { closeDb } from "@/lib/foundation/db/client";

const DEBITS = 500;
const COST = 150;
const GRANT = COST * 400 + 75; // enough for 400 debits: 100 must be refused, 75 left over

async function main() {
  const { db, driver } = await dbHandle();
  const account = await createAccount(db, { email: `bench-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: GRANT });
  const started = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: DEBITS }, (_, i) => debitTokens(db, { accountId: account.id, amount: COST, operation: "bench", reference: `bench_${i}` })),
  );
  const seconds = (performance.now() - started) / 1000;
  const ok = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.filter((r) => r.status === "rejected" && (r.reason as { status?: number }).status === 402).length;
  const balance = await getBalance(db, account.id);
  const [row] = await db.select({ total: sum(walletTransactions.amount) }).from(walletTransactions).where(eq(walletTransactions.accountId, account.id));
  const ledger = Number(row?.total ?? 0);
  console.log(
    JSON.stringify({
      driver,
      attempts: DEBITS,
      succeeded: ok,
      refused402: refused,
      seconds: Number(seconds.toFixed(3)),
      attemptsPerSecond: Math.round(DEBITS / seconds),
      finalBalance: balance,
      expectedBalance: GRANT - ok * COST,
      ledgerSum: ledger,
      overdraws: balance < 0 ? 1 : 0,
      consistent: balance === GRANT - ok * COST && ledger === balance && ok === 400,
    }),
  );
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
