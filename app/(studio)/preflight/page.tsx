import type { Metadata } from "next";
import { PreflightPage } from "@/components/preflight/preflight-page";

export const metadata: Metadata = { title: "Preflight" };

export default async function Preflight({ searchParams }: { searchParams: Promise<{ report?: string }> }) {
  const report = (await searchParams).report;
  return <PreflightPage initialReportId={typeof report === "string" && /^rpt_[A-Za-z0-9]{1,60}$/.test(report) ? report : undefined} />;
}
