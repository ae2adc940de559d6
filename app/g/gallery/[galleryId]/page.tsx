import { GalleryGrid } from "@/components/galleries/gallery-grid";

export const metadata = { title: "Gallery" };

export default async function GalleryPage({ params }: { params: Promise<{ galleryId: string }> }) {
  return <GalleryGrid galleryId={(await params).galleryId} />;
}
