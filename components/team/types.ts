import type { ApiResponse } from "@/lib/client/typed-api";

/** The team's shapes as the pages read them, derived from the /v1 routes that return them. */
export type Member = ApiResponse<"/v1/members", "get">["data"][number];
export type Invitation = ApiResponse<"/v1/invitations", "get">["data"][number];
export type AuditEvent = ApiResponse<"/v1/audit-log", "get">["data"][number];
export type Role = Member["role"];

export const ROLE_OPTIONS: readonly { value: Role; label: string; means: string }[] = [
  { value: "owner", label: "Owner", means: "everything, including billing and members" },
  { value: "admin", label: "Admin", means: "members (not owners), API keys, webhooks, settings, consent" },
  { value: "photographer", label: "Photographer", means: "every service, agencies, rosters and photos" },
  { value: "viewer", label: "Viewer", means: "reads everything, changes nothing" },
];

export const membersQueryKey = ["team", "members"] as const;
export const invitationsQueryKey = ["team", "invitations"] as const;
