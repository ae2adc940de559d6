import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { MembersCard } from "@/components/team/members-card";
import { InvitationsCard } from "@/components/team/invitations-card";
import { TwoFactorRequirementCard } from "@/components/team/two-factor-requirement-card";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const { studio, role } = await requireMember();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Team of {studio.name}</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Everyone here works on the studio&apos;s wallet, agencies and photos with their own login. Owners handle billing and members; admins handle members, API keys,
          webhooks and consent; photographers run every service; viewers read. You are {role === "admin" || role === "owner" ? "an" : "a"} <strong>{role}</strong>.
        </p>
      </div>
      <MembersCard myRole={role} />
      {roleAtLeast(role, "admin") ? <InvitationsCard myRole={role} /> : null}
      {roleAtLeast(role, "admin") ? <TwoFactorRequirementCard myRole={role} /> : null}
    </div>
  );
}
