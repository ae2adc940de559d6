import { ApiError } from "@/lib/foundation/http/api-error";

/** A member's role in a studio, lowest first: each role may do everything the ones below it may. */
export const ROLES = ["viewer", "photographer", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/**
 * What a route needs when it does not say: reading is for every member, changing
 * anything is for photographers and up (every service, agencies, rosters, photos).
 */
export function defaultRole(method: string): Role {
  return method === "GET" || method === "HEAD" ? "viewer" : "photographer";
}

export function forbiddenRole(required: Role, role: Role): ApiError {
  return new ApiError(403, "FORBIDDEN_ROLE", `This needs the ${required} role in this studio; you are ${role === "admin" || role === "owner" ? "an" : "a"} ${role}.`, {
    required_role: required,
    role,
  });
}

export function assertRole(role: Role, required: Role): void {
  if (!roleAtLeast(role, required)) throw forbiddenRole(required, role);
}

/** Routes about the signed-in person (their password, address) need a person, not an API key. */
export function requirePerson<U>(user: U | null): U {
  if (!user) throw new ApiError(403, "PERSON_REQUIRED", "This changes a person's own login: call it with their access token or studio session, not an API key.");
  return user;
}
