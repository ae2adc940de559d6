import type { Metadata } from "next";
import { JobPhotos } from "@/components/agencies/job-photos";
import { routeId } from "@/components/agencies/route-id";

export const metadata: Metadata = { title: "Job photos" };

export default async function JobPage({ params }: { params: Promise<{ agencyId: string; jobId: string }> }) {
  const { agencyId, jobId } = await params;
  return <JobPhotos agencyId={routeId(agencyId)} jobId={routeId(jobId)} />;
}
