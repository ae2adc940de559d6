import type { accounts } from "@/lib/foundation/db/schema";

export type AccountRow = typeof accounts.$inferSelect;

export function toPublicAccount(row: AccountRow) {
  const hold = row.holdReason ? { reason: row.holdReason, since: (row.heldAt ?? row.createdAt).toISOString() } : null;
  return { id: row.id, email: row.email, name: row.name, plan: row.plan, email_verified: row.emailVerifiedAt !== null, hold };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
