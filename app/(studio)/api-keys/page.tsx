import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { RoleNotice } from "@/components/layout/role-notice";
import type { Metadata } from "next";
import { ApiKeysManager } from "@/components/api-keys/api-keys-manager";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const { studio, role } = await requireMember();
  if (!roleAtLeast(role, "admin")) return <RoleNotice need="admin" role={role} studio={studio.name} />;
  return <ApiKeysManager />;
}
