import type { Metadata } from "next";
import { AgenciesOverview } from "@/components/agencies/agencies-overview";

export const metadata: Metadata = { title: "Agencies" };

export default function AgenciesPage() {
  return <AgenciesOverview />;
}
