import type { Metadata } from "next";
import { Suspense } from "react";
import { QrHistory } from "@/components/qr/qr-history";
import { QrRosterEditor } from "@/components/qr/qr-roster-editor";
import { requireMember } from "@/lib/services/sign-in/current-account";

export const metadata: Metadata = { title: "Bulk QR cards" };

export default async function QrPage({ searchParams }: { searchParams: Promise<{ agency?: string }> }) {
  const { studio: account } = await requireMember();
  const agency = Number((await searchParams).agency);
  return (
    <div className="space-y-6">
      <QrRosterEditor plan={account.plan} agencyId={Number.isInteger(agency) && agency > 0 ? agency : undefined} />
      <Suspense>
        <QrHistory />
      </Suspense>
    </div>
  );
}
