import type { Role } from "@/lib/domain/identity/roles";
import { NAV_ITEMS } from "./nav-items";

const ORDER: readonly Role[] = ["viewer", "photographer", "admin", "owner"];

/** Pages a role below theirs sees only as a notice (the nav's roles, and the owner's top-up page). */
const PAGE_ROLES: Record<string, Role> = { ...Object.fromEntries(NAV_ITEMS.filter((i) => i.role).map((i) => [i.href, i.role!])), "/wallet/top-up": "owner" };

/**
 * Where switching studio goes from `pathname`: the same page in the other
 * studio, or, from a page of one record (an agency, a match job, a product),
 * the list above it, since that record belongs to the studio left. When the
 * other studio does not have that page for `role` (the member's role there: a
 * viewer switching away from API keys), the dashboard instead of a notice.
 */
export function stayOn(pathname: string, role: Role = "owner"): string {
  const [section, ...rest] = pathname.split("/").filter(Boolean);
  if (!section) return "/dashboard";
  // /wallet/top-up is a page of its own, not a record.
  const target = rest.length && section !== "wallet" ? `/${section}` : pathname;
  const need = PAGE_ROLES[target];
  return need && ORDER.indexOf(role) < ORDER.indexOf(need) ? "/dashboard" : target;
}
