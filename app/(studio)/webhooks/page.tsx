import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { RoleNotice } from "@/components/layout/role-notice";
import type { Metadata } from "next";
import { WebhooksManager } from "./webhooks-manager";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const { studio, role } = await requireMember();
  if (!roleAtLeast(role, "admin")) return <RoleNotice need="admin" role={role} studio={studio.name} />;
  return <WebhooksManager />;
}
