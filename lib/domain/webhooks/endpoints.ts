import { and, count, desc, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { webhookEndpoints } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { notFound } from "@/lib/foundation/http/api-error";
import { checkFetchableUrl, toApiError } from "@/lib/domain/net";
import { generateWebhookSecret } from "./secret";

type Row = typeof webhookEndpoints.$inferSelect;

export function toPublicEndpoint(row: Row) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
    failed_deliveries_in_a_row: row.failedDeliveriesInARow,
    created_at: row.createdAt.toISOString(),
  };
}

/** The safe fetcher's rules (http(s), no credentials, no private or reserved address): a 400 naming `url`. */
export async function checkEndpointUrl(url: string): Promise<void> {
  try {
    await checkFetchableUrl(url);
  } catch (err) {
    throw toApiError(err, "url");
  }
}

export async function createEndpoint(db: Db, accountId: string, input: { url: string; events: string[]; description?: string }) {
  await checkEndpointUrl(input.url);
  const secret = generateWebhookSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ id: newId("whe"), accountId, url: input.url, events: [...new Set(input.events)], description: input.description ?? null, secret })
    .returning();
  await recordAudit(db, { accountId, action: "webhook_endpoint.created", target: row!.id, data: { url: input.url, events: row!.events } });
  return { ...toPublicEndpoint(row!), secret };
}

export async function listEndpoints(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const where = eq(webhookEndpoints.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db.select().from(webhookEndpoints).where(where).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(webhookEndpoints).where(where),
  ]);
  return { items: rows.map(toPublicEndpoint), total: total?.n ?? 0 };
}

/** The row (with its secret), scoped by account: another account's endpoint is a 404. */
export async function endpointRow(db: Db, accountId: string, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

export async function getEndpoint(db: Db, accountId: string, id: string) {
  return toPublicEndpoint(await endpointRow(db, accountId, id));
}

export async function updateEndpoint(db: Db, accountId: string, id: string, input: { enabled?: boolean; events?: string[] }) {
  const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: new Date() };
  if (input.events) set.events = [...new Set(input.events)];
  if (input.enabled === true) Object.assign(set, { enabled: true, disabledAt: null, disabledReason: null, failedDeliveriesInARow: 0 });
  if (input.enabled === false) Object.assign(set, { enabled: false, disabledAt: new Date(), disabledReason: "Disabled by the account." });
  const [row] = await db
    .update(webhookEndpoints)
    .set(set)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)))
    .returning();
  if (!row) throw notFound("Webhook endpoint");
  await recordAudit(db, { accountId, action: "webhook_endpoint.updated", target: id, data: { ...input } });
  return toPublicEndpoint(row);
}

/** Deleting an endpoint deletes its deliveries; a delivery job already queued finds nothing and ends. */
export async function deleteEndpoint(db: Db, accountId: string, id: string): Promise<void> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw notFound("Webhook endpoint");
  await recordAudit(db, { accountId, action: "webhook_endpoint.deleted", target: id });
}

/** A new secret, effective for the next attempt; shown once, here. */
export async function rotateEndpointSecret(db: Db, accountId: string, id: string) {
  const secret = generateWebhookSecret();
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secret, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)))
    .returning();
  if (!row) throw notFound("Webhook endpoint");
  return { ...toPublicEndpoint(row), secret };
}
