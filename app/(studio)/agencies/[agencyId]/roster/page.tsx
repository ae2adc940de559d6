import type { Metadata } from "next";
import { RosterEditor } from "@/components/agencies/roster-editor";
import { routeId } from "@/components/agencies/route-id";

export const metadata: Metadata = { title: "Roster" };

export default async function RosterPage({ params }: { params: Promise<{ agencyId: string }> }) {
  return <RosterEditor agencyId={routeId((await params).agencyId)} />;
}
