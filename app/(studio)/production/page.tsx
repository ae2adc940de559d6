import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { BatchesPage } from "@/components/production/batches-page";
import { LabProfileCard } from "@/components/production/lab-profile-card";
import { UsageCard } from "@/components/production/usage-card";

export const metadata: Metadata = { title: "Production" };

export default async function ProductionPage() {
  const { role } = await requireMember();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Production</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">Paid prints become lab files: each parent&apos;s crop from the original at the product&apos;s size, 300 ppi, checked by Preflight. Send them to your lab in batches with a manifest and packing slips.</p>
      </div>
      <BatchesPage canChange={roleAtLeast(role, "admin")} />
      <LabProfileCard canChange={roleAtLeast(role, "admin")} />
      {roleAtLeast(role, "photographer") ? <UsageCard /> : null}
    </div>
  );
}
