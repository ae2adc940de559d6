import type { Metadata } from "next";
import { AgencyDetail } from "@/components/agencies/agency-detail";
import { routeId } from "@/components/agencies/route-id";

export const metadata: Metadata = { title: "Agency" };

export default async function AgencyPage({ params }: { params: Promise<{ agencyId: string }> }) {
  return <AgencyDetail agencyId={routeId((await params).agencyId)} />;
}
