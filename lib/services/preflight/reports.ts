import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { preflightReports } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { toPublicReport } from "./public-report";

/** Newest first (insertion order), scoped to the account. */
export async function listReports(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const where = eq(preflightReports.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db.select().from(preflightReports).where(where).orderBy(desc(preflightReports.seq)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(preflightReports).where(where),
  ]);
  return { items: await Promise.all(rows.map((r) => toPublicReport(r, { withIssues: false }))), total: total?.n ?? 0 };
}

/** The account's own report; another account's is indistinguishable from a missing one (404). */
export async function getReportRow(db: Db, accountId: string, reportId: string) {
  const [row] = await db
    .select()
    .from(preflightReports)
    .where(and(eq(preflightReports.id, reportId), eq(preflightReports.accountId, accountId)));
  if (!row) throw notFound("Report");
  return row;
}

export async function getReport(db: Db, accountId: string, reportId: string) {
  return toPublicReport(await getReportRow(db, accountId, reportId), { withIssues: true });
}

/** Deletes the report, the stored copy of its file and its preview. The quota is not given back. */
export async function deleteReport(db: Db, accountId: string, reportId: string): Promise<void> {
  const [row] = await db
    .delete(preflightReports)
    .where(and(eq(preflightReports.id, reportId), eq(preflightReports.accountId, accountId)))
    .returning({ key: preflightReports.fileStorageKey, facts: preflightReports.facts });
  if (!row) throw notFound("Report");
  await storage().delete(row.key);
  if (row.facts.previewKey) await storage().delete(row.facts.previewKey);
}
