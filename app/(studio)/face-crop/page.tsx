import type { Metadata } from "next";
import { Suspense } from "react";
import { FaceCropStudio } from "@/components/face-crop/face-crop-studio";

export const metadata: Metadata = { title: "Face crop" };

export default function FaceCropPage() {
  // Suspense: the history reads its page, filter and open task from the URL.
  return (
    <Suspense>
      <FaceCropStudio />
    </Suspense>
  );
}
