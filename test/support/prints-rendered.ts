// For tests of what follows production (an order shipped by hand, refunds of a shipped
// order): the order's print files as a rendered batch leaves them. Not rendered for
// real: the orders harness's photos are rows without originals in storage; production's
// own tests render (test/api/production-*.test.ts).
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { printFiles } from "@/lib/foundation/db/schema";
import { collectPrintFiles } from "@/lib/services/production/collect-print-files";

export async function printsRendered(accountId: string, orderId: string): Promise<void> {
  const db = await getDb();
  await collectPrintFiles(db, accountId, [orderId]);
  await db.update(printFiles).set({ status: "rendered", renderedAt: new Date() }).where(and(eq(printFiles.accountId, accountId), eq(printFiles.orderId, orderId)));
}
