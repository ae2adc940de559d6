import { requireMember } from "@/lib/auth/current-account";
import { roleAtLeast } from "@/lib/auth/roles";
import { RoleNotice } from "@/components/layout/role-notice";
import type { Metadata } from "next";
import { WebhooksManager } from "./webhooks-manager";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const { studio, role } = await requireMember();
  if (!roleAtLeast(role, "admin")) return <RoleNotice need="admin" role={role} studio={studio.name} />;
  return <WebhooksManager />;
}
