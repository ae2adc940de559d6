import type { Metadata } from "next";
import { Suspense } from "react";
import { BgRemoveStudio } from "@/components/bg-remove/bg-remove-studio";

export const metadata: Metadata = { title: "Background removal" };

export default function BgRemovePage() {
  // Suspense: the history reads its page, filter and picked job from the URL.
  return (
    <Suspense>
      <BgRemoveStudio />
    </Suspense>
  );
}
