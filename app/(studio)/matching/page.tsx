import type { Metadata } from "next";
import { Suspense } from "react";
import { MatchingHome } from "@/components/matching/matching-home";

export const metadata: Metadata = { title: "Face matching" };

export default function MatchingPage() {
  return (
    <Suspense>
      <MatchingHome />
    </Suspense>
  );
}
