"use client";

import Link from "next/link";
import { useInfiniteQuery } from "@tanstack/react-query";
import { ListSkeleton, EmptyState } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { Button } from "@/components/ui/button";
import { parentApi, type ParentSession } from "@/lib/client/parent-session";
import { unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { FavouriteButton } from "./favourite-button";
import { useGallerySession } from "./use-parent-query";
import { ReminderSignup } from "./reminder-signup";

type PhotoPage = ApiResponse<"/v1/parent/galleries/{galleryId}/photos", "get">;
type Photo = PhotoPage["data"][number];
const PAGE = 48;

/** The gallery's tabs (own, group), favourites, and a way to leave on a shared phone. */
function GalleryNav({ session, current, onLeave }: { session: ParentSession; current: string; onLeave: () => void }) {
  const tab = (active: boolean) => `shrink-0 rounded-full px-4 py-2 text-sm font-medium ${active ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700"}`;
  return (
    <header className="mb-4">
      <div className="flex items-center justify-between gap-2">
        <p className="truncate text-sm text-slate-500">{session.galleries[0]!.studio_name}</p>
        <div className="flex shrink-0 gap-2">
          {/* Outside the tabs: the cart is where the favourites become an order. */}
          <Link href="/g/cart" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white">
            Order prints
          </Link>
          <Button type="button" variant="secondary" onClick={onLeave}>
            Leave
          </Button>
        </div>
      </div>
      <nav aria-label="Galleries" className="mt-3 flex gap-2 overflow-x-auto pb-1">
        {session.galleries.map((g) => (
          <Link key={g.id} href={`/g/gallery/${g.id}`} className={tab(current === g.id)} aria-current={current === g.id ? "page" : undefined}>
            {g.kind === "group" ? `Group · ${g.title}` : g.title}
          </Link>
        ))}
        <Link href="/g/favourites" className={tab(current === "favourites")} aria-current={current === "favourites" ? "page" : undefined}>
          ♥ Favourites
        </Link>
      </nav>
    </header>
  );
}

/** Photos as pictures, two across on a phone and four on a laptop; each opens the photo view. */
function PhotoGrid({ token, photos, from }: { token: string; photos: Photo[]; from: string }) {
  return (
    <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4" data-testid="photo-grid">
      {photos.map((p) => (
        <li key={p.id} className="relative">
          <Link href={`/g/photo/${p.id}?from=${encodeURIComponent(from)}`} className="block overflow-hidden rounded-md bg-slate-100">
            {/* eslint-disable-next-line @next/next/no-img-element -- signed, per-child URLs: the image optimiser would cache them past their scope */}
            <img src={p.preview_url} alt="Photo" width={p.width} height={p.height} loading="lazy" className="aspect-[4/5] h-full w-full object-cover" />
          </Link>
          <div className="absolute right-2 bottom-2">
            <FavouriteButton token={token} photoId={p.id} favourite={p.favourite} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function usePhotoPages(key: unknown[], token: string | undefined, fetchPage: (page: number) => Promise<PhotoPage>) {
  return useInfiniteQuery({
    queryKey: ["parent", ...key],
    enabled: !!token,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => (last.links.next ? last.meta.current_page + 1 : undefined),
  });
}

function PhotoPages({ title, query, token, from, empty }: { title: string; query: ReturnType<typeof usePhotoPages>; token: string; from: string; empty: string }) {
  if (query.isPending) return <ListSkeleton label="Loading photos" rows={4} rowClassName="h-40" />;
  if (query.isError) return <QueryError title={`${title}:`} error={query.error} onRetry={() => void query.refetch()} />;
  const photos = query.data.pages.flatMap((p) => p.data);
  if (photos.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <>
      <PhotoGrid token={token} photos={photos} from={from} />
      {query.hasNextPage ? (
        <div className="mt-4 text-center">
          <Button type="button" variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? "Loading…" : "More photos"}
          </Button>
        </div>
      ) : null}
    </>
  );
}

export function GalleryGrid({ galleryId }: { galleryId: string }) {
  const probe = useGallerySession();
  const token = probe.session?.token;
  const query = usePhotoPages(["gallery", galleryId], token, async (page) =>
    unwrap(await parentApi(token).GET("/v1/parent/galleries/{galleryId}/photos", { params: { path: { galleryId }, query: { page: String(page), limit: String(PAGE) } } })),
  );
  const { session, end } = useGallerySession(query.error);
  if (!session) return <ListSkeleton label="Opening the gallery" rows={3} rowClassName="h-40" />;
  const gallery = session.galleries.find((g) => g.id === galleryId);
  return (
    <div>
      <GalleryNav session={session} current={galleryId} onLeave={end} />
      <h1 className="mb-3 text-xl font-semibold text-slate-900">{gallery ? (gallery.kind === "group" ? gallery.title : `${gallery.title}'s photos`) : "Photos"}</h1>
      <PhotoPages title="The photos could not be loaded" query={query} token={session.token} from={`/g/gallery/${galleryId}`} empty="No photos here yet: the studio is still preparing them." />
    </div>
  );
}

export function FavouritesGrid() {
  const probe = useGallerySession();
  const token = probe.session?.token;
  const query = usePhotoPages(["favourites"], token, async (page) => unwrap(await parentApi(token).GET("/v1/parent/favourites", { params: { query: { page: String(page), limit: String(PAGE) } } })));
  const { session, end } = useGallerySession(query.error);
  if (!session) return <ListSkeleton label="Opening the gallery" rows={3} rowClassName="h-40" />;
  return (
    <div>
      <GalleryNav session={session} current="favourites" onLeave={end} />
      <h1 className="mb-3 text-xl font-semibold text-slate-900">Favourites</h1>
      <PhotoPages title="The favourites could not be loaded" query={query} token={session.token} from="/g/favourites" empty="Tap the heart on a photo to keep it here." />
      <ReminderSignup token={session.token} />
    </div>
  );
}
