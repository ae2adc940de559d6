import type { Metadata } from "next";
import { BgRemoveStudio } from "@/components/bg-remove/bg-remove-studio";

export const metadata: Metadata = { title: "Background removal" };

export default function BgRemovePage() {
  return <BgRemoveStudio />;
}
