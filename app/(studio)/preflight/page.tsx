import type { Metadata } from "next";
import { PreflightPage } from "@/components/preflight/preflight-page";

export const metadata: Metadata = { title: "Preflight" };

export default function Preflight() {
  return <PreflightPage />;
}
