import type { Db } from "@/lib/foundation/db/types";
import { auditEvents } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { currentActor, currentClientIp } from "@/lib/foundation/http/request-context";

/** What the audit log records (GET /v1/audit-log `action` filter takes these). */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "account.password_changed",
  "account.password_reset",
  "account.email_changed",
  "account.renamed",
  "account.two_factor_enabled",
  "account.two_factor_disabled",
  "account.recovery_codes_replaced",
  "studio.two_factor_requirement_changed",
  "member.role_changed",
  "member.removed",
  "member.left",
  "invitation.created",
  "invitation.revoked",
  "invitation.accepted",
  "api_key.created",
  "api_key.revoked",
  "unauth_token.rotated",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.deleted",
  "billing.checkout_started",
  "billing.plan_changed",
  "billing.auto_top_up_changed",
  "agency.face_matching_changed",
  "agency.deleted",
  "subject.deleted",
  "data.deleted",
  "payments.stripe_connected",
  "order.status_changed",
  "order.refunded",
  "order.refund_failed",
  "order.downloads_sent",
  "order.canceled",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditActor = { type: "member" | "api_key" | "operator" | "system"; id: string | null; name: string | null };

/**
 * One line in a studio's audit log. Pass the transaction that makes the change,
 * so the line and the change commit together. The actor and IP come from the
 * request being served (lib/foundation/http/request-context.ts) unless given: sign-ins and
 * the public invitation link name their person themselves.
 */
export async function recordAudit(
  db: Db,
  input: { accountId: string; action: AuditAction; target?: string | null; data?: Record<string, unknown>; actor?: AuditActor; ip?: string | null },
): Promise<void> {
  const actor = input.actor ?? actorFromRequest();
  await db.insert(auditEvents).values({
    id: newId("aud"),
    accountId: input.accountId,
    actorType: actor.type,
    actorId: actor.id,
    actorName: actor.name,
    action: input.action,
    target: input.target ?? null,
    data: input.data ?? {},
    ip: input.ip ?? currentClientIp() ?? null,
  });
}

function actorFromRequest(): AuditActor {
  const actor = currentActor();
  if (actor?.type === "member") return { type: "member", id: actor.userId, name: actor.name };
  if (actor?.type === "api_key") return { type: "api_key", id: actor.apiKeyId, name: actor.name };
  return { type: "system", id: null, name: null };
}
