import type { accounts } from "@/lib/db/schema";

export type AccountRow = typeof accounts.$inferSelect;

export function toPublicAccount(row: AccountRow) {
  return { id: row.id, email: row.email, name: row.name, plan: row.plan, email_verified: row.emailVerifiedAt !== null };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
