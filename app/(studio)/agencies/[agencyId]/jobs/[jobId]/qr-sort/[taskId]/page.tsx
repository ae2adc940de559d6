import type { Metadata } from "next";
import { QrSortSheet } from "@/components/qr-sort/qr-sort-sheet";
import { routeId } from "@/components/agencies/route-id";

export const metadata: Metadata = { title: "QR sort" };

export default async function QrSortPage({ params }: { params: Promise<{ agencyId: string; jobId: string; taskId: string }> }) {
  const { agencyId, jobId, taskId } = await params;
  return <QrSortSheet agencyId={routeId(agencyId)} jobId={routeId(jobId)} taskId={decodeURIComponent(taskId)} />;
}
