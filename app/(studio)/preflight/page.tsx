import type { Metadata } from "next";
import { Suspense } from "react";
import { PreflightPage } from "@/components/preflight/preflight-page";

export const metadata: Metadata = { title: "Preflight" };

// The page reads `?report=` itself (useSearchParams), which Next.js renders inside Suspense.
export default function Preflight() {
  return (
    <Suspense>
      <PreflightPage />
    </Suspense>
  );
}
