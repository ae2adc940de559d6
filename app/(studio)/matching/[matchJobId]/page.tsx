import type { Metadata } from "next";
import { MatchReview } from "@/components/matching/match-review";
import { routeId } from "@/components/agencies/route-id";

export const metadata: Metadata = { title: "Match review" };

export default async function MatchReviewPage({ params }: { params: Promise<{ matchJobId: string }> }) {
  return <MatchReview matchJobId={routeId((await params).matchJobId)} />;
}
