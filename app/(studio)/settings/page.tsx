import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { BasicAuthCard } from "@/components/core/settings/basic-auth-card";
import { UnauthTokenCard } from "@/components/core/settings/unauth-token-card";
import { PaymentsCard } from "@/components/orders/payments-card";
import { GallerySettingsCard } from "@/components/galleries/gallery-settings-card";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { user, studio, role } = await requireMember();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Settings</h1>
      {/* Rotating breaks every storefront using the token: admins and the owner only (as the API decides). */}
      {/* The studio's Stripe account for parents' payments: admins and the owner (as the API decides). */}
      {roleAtLeast(role, "admin") ? <PaymentsCard /> : null}
      {/* Read by photographers (the API's GET), changed by admins. */}
      {roleAtLeast(role, "photographer") ? <GallerySettingsCard canEdit={roleAtLeast(role, "admin")} /> : null}
      <UnauthTokenCard canRotate={roleAtLeast(role, "admin")} />
      <BasicAuthCard email={user.email} studioId={studio.id === user.id ? undefined : studio.id} />
    </div>
  );
}
