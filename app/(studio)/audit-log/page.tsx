import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { RoleNotice } from "@/components/layout/role-notice";
import { AuditLogCard } from "@/components/team/audit-log-card";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage() {
  const { studio, role } = await requireMember();
  if (!roleAtLeast(role, "admin")) return <RoleNotice need="admin" role={role} studio={studio.name} />;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Sign-ins, password and email changes, members and invitations, API keys, webhooks, billing and consent switches in {studio.name}: who, what, when and from where.
        </p>
      </div>
      <AuditLogCard />
    </div>
  );
}
