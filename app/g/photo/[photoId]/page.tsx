import { PhotoView } from "@/components/galleries/photo-view";

export const metadata = { title: "Photo" };

export default async function PhotoPage({ params }: { params: Promise<{ photoId: string }> }) {
  return <PhotoView photoId={(await params).photoId} />;
}
