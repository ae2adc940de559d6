/**
 * The studio's pages, grouped as the navigation shows them. Only pages that exist
 * are listed; a feature adds its entry to its group when it lands (a new group is
 * one more object). Plain data: the nav renders it, e2e/support/nav.ts reads it to
 * find which group holds a page.
 */
import type { Role } from "@/lib/domain/identity/roles";

/** `role`: the least studio role the page is for (the nav hides it from members below; the API refuses them anyway). */
export type NavItem = { href: string; label: string; role?: Role };
export type NavGroup = { label: string; items: readonly NavItem[] };

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: "Services",
    items: [
      { href: "/bg-remove", label: "Background removal" },
      { href: "/face-crop", label: "Face crop" },
      { href: "/matching", label: "Face matching" },
      { href: "/preflight", label: "Preflight" },
      { href: "/ai-fixes", label: "AI fixes" },
      { href: "/qr", label: "Bulk QR" },
    ],
  },
  {
    label: "Studio data",
    items: [
      { href: "/products", label: "Products" },
      { href: "/projects", label: "Projects" },
      { href: "/agencies", label: "Agencies" },
    ],
  },
  {
    label: "Sales",
    items: [
      { href: "/orders", label: "Orders", role: "photographer" },
      { href: "/production", label: "Production", role: "photographer" },
      { href: "/price-sheets", label: "Price sheets", role: "photographer" },
    ],
  },
  {
    label: "Developers",
    items: [
      { href: "/api-keys", label: "API keys", role: "admin" },
      { href: "/webhooks", label: "Webhooks", role: "admin" },
      { href: "/docs", label: "API reference" },
    ],
  },
  {
    label: "Account",
    items: [
      { href: "/dashboard", label: "Wallet" },
      { href: "/account", label: "Account" },
      { href: "/team", label: "Team" },
      { href: "/audit-log", label: "Audit log", role: "admin" },
      { href: "/settings", label: "Settings" },
    ],
  },
];

/** Every page, flat (links checks, tests). */
export const NAV_ITEMS: readonly NavItem[] = NAV_GROUPS.flatMap((g) => g.items);

export const isActive = (pathname: string, href: string) => pathname === href || pathname.startsWith(`${href}/`);

/** The group a page label lives in. */
export const groupOf = (label: string) => NAV_GROUPS.find((g) => g.items.some((i) => i.label === label))?.label;

/** The groups as a member with `role` sees them. */
export function navGroupsFor(role: Role): NavGroup[] {
  const order = ["viewer", "photographer", "admin", "owner"];
  return NAV_GROUPS.map((g) => ({ ...g, items: g.items.filter((i) => !i.role || order.indexOf(role) >= order.indexOf(i.role)) })).filter((g) => g.items.length > 0);
}
