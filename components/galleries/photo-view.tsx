"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { parentApi } from "@/lib/client/parent-session";
import { unwrap } from "@/lib/client/typed-api";
import { FavouriteButton } from "./favourite-button";
import { useGallerySession } from "./use-parent-query";
import { YearbookPoseButton } from "./yearbook-pose-button";

/** One photo as large as the screen allows (the watermarked preview), with its heart, and the yearbook choice on the child's own photos. */
export function PhotoView({ photoId }: { photoId: string }) {
  const search = useSearchParams();
  const probe = useGallerySession();
  const token = probe.session?.token;
  const query = useQuery({
    queryKey: ["parent", "photo", photoId],
    enabled: !!token,
    queryFn: async () => unwrap(await parentApi(token).GET("/v1/parent/photos/{photoId}", { params: { path: { photoId } } })),
  });
  const { session } = useGallerySession(query.error);
  const back = search.get("from")?.startsWith("/g/") ? search.get("from")! : session ? `/g/gallery/${session.galleries[0]!.id}` : "/g";
  return (
    <div>
      <Link href={back} className="mb-3 inline-block text-sm text-brand-700 underline">
        ← Back
      </Link>
      {query.isPending ? <ListSkeleton label="Loading the photo" rows={1} rowClassName="h-96" /> : null}
      {query.isError ? <QueryError title="The photo could not be loaded:" error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && session ? (
        <>
          <figure className="relative">
            {/* eslint-disable-next-line @next/next/no-img-element -- signed, per-child URL */}
            <img src={query.data.preview_url} alt="Photo" width={query.data.width} height={query.data.height} className="mx-auto max-h-[80vh] w-auto rounded-md" data-testid="photo-large" />
            <div className="absolute right-3 bottom-3">
              <FavouriteButton token={session.token} photoId={photoId} favourite={query.data.favourite} large />
            </div>
          </figure>
          {session.galleries.some((g) => g.kind === "subject" && g.id === query.data.gallery_id) ? <YearbookPoseButton token={session.token} photoId={photoId} /> : null}
        </>
      ) : null}
    </div>
  );
}
