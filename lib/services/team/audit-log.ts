import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { auditEvents } from "@/lib/foundation/db/schema";
import type { AuditAction } from "@/lib/domain/audit/record-audit";

type Row = typeof auditEvents.$inferSelect;

function toAuditEvent(row: Row) {
  return {
    id: row.id,
    action: row.action,
    actor: { type: row.actorType as "member" | "api_key" | "operator" | "system", id: row.actorId, name: row.actorName },
    target: row.target,
    data: row.data,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /v1/audit-log: newest first, optionally one action. */
export async function listAuditEvents(db: Db, accountId: string, page: { limit: number; offset: number }, action?: AuditAction) {
  const conditions: SQL[] = [eq(auditEvents.accountId, accountId)];
  if (action) conditions.push(eq(auditEvents.action, action));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.seq)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return { items: rows.map(toAuditEvent), total: total?.n ?? 0 };
}
