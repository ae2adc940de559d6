import type { Metadata } from "next";
import { FaceCropStudio } from "@/components/face-crop/face-crop-studio";

export const metadata: Metadata = { title: "Face crop" };

export default function FaceCropPage() {
  return <FaceCropStudio />;
}
