import type { Metadata } from "next";
import { Suspense } from "react";
import { FixJobHistory } from "@/components/fixes/fix-job-history";

export const metadata: Metadata = { title: "AI fixes" };

export default function AiFixesPage() {
  return (
    <Suspense>
      <FixJobHistory />
    </Suspense>
  );
}
