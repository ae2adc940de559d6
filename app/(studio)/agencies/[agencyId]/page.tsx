import type { Metadata } from "next";
import { AgencyDetail } from "@/components/studio/agency-detail";
import { routeId } from "@/components/studio/route-id";

export const metadata: Metadata = { title: "Agency" };

export default async function AgencyPage({ params }: { params: Promise<{ agencyId: string }> }) {
  return <AgencyDetail agencyId={routeId((await params).agencyId)} />;
}
