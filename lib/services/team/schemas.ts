import { z } from "zod";
import { ROLES } from "@/lib/domain/identity/roles";
import { AUDIT_ACTIONS } from "@/lib/domain/audit/record-audit";
import { pageQuery } from "@/lib/foundation/http/pagination";

const ts = z.iso.datetime({ offset: true });
const role = z.enum(ROLES);

export const memberParams = z.object({ id: z.string().min(1).max(64) });
export const invitationParams = z.object({ id: z.string().min(1).max(64) });

/** PATCH /v1/members/{id}. */
export const updateMemberBody = z.strictObject({ role });

/** POST /v1/invitations. */
export const createInvitationBody = z.strictObject({
  email: z.email().max(254),
  role: role.default("photographer"),
});

/** POST /v1/invitations/accept: name and password only when the address has no login yet. */
export const acceptInvitationBody = z.strictObject({
  token: z.string().min(10).max(200),
  name: z.string().trim().min(1).max(100).optional(),
  password: z.string().min(1).max(200).optional(),
});

export const memberResponse = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  joined_at: ts,
  /** The caller's own membership. */
  you: z.boolean(),
  /** Whether this person signs in with a second factor (a studio may require it of owners and admins). */
  two_factor_enabled: z.boolean(),
});

export const invitationResponse = z.object({
  id: z.string(),
  email: z.string(),
  role,
  status: z.enum(["pending", "accepted", "revoked", "expired"]),
  invited_by: z.string().nullable(),
  expires_at: ts,
  created_at: ts,
});

export const acceptedInvitationResponse = z.object({
  studio: z.object({ id: z.string(), name: z.string() }),
  role,
  /** True when the invitation created the login (sign in with the password just chosen). */
  login_created: z.boolean(),
  email: z.string(),
});

export const studioResponse = z.object({ id: z.string(), name: z.string(), role, current: z.boolean() });
export const studiosResponse = z.object({ data: z.array(studioResponse) });

export const auditQuery = pageQuery.extend({ action: z.enum(AUDIT_ACTIONS).optional() });
export const auditEventResponse = z.object({
  id: z.string(),
  action: z.string(),
  actor: z.object({ type: z.enum(["member", "api_key", "operator", "system"]), id: z.string().nullable(), name: z.string().nullable() }),
  target: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  created_at: ts,
});
