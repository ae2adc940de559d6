import type { Metadata } from "next";
import { QrRosterEditor } from "@/components/qr/qr-roster-editor";
import { requireAccount } from "@/lib/auth/current-account";

export const metadata: Metadata = { title: "Bulk QR cards" };

export default async function QrPage({ searchParams }: { searchParams: Promise<{ agency?: string }> }) {
  const account = await requireAccount();
  const agency = Number((await searchParams).agency);
  return <QrRosterEditor plan={account.plan} agencyId={Number.isInteger(agency) && agency > 0 ? agency : undefined} />;
}
