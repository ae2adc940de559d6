"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { parentApi } from "@/lib/client/parent-session";
import { useObjectUrl } from "@/lib/client/use-object-url";

type Props = { token: string; photoId: string; backgroundId: string; name: string };

/**
 * The child on the chosen background, as the print will be made (watermarked, at
 * preview size). The first background of a photo waits for the cut-out (seconds):
 * the time so far is shown until it arrives; later ones are quick.
 */
export function BackgroundPreview({ token, photoId, backgroundId, name }: Props) {
  const queryClient = useQueryClient();
  const preview = useQuery({
    queryKey: ["parent", "background-preview", token, photoId, backgroundId],
    staleTime: Infinity,
    queryFn: async () => {
      const { data, error } = await parentApi(token).GET("/v1/parent/photos/{photoId}/backgrounds/{backgroundId}", { params: { path: { photoId, backgroundId } }, parseAs: "blob" });
      if (error || !data) throw new Error("The preview could not be made.");
      // The photo's cut-out exists now: the print's warnings (a head cut by the top) can be judged on it.
      void queryClient.invalidateQueries({ queryKey: ["parent", "print-warnings", token, photoId] });
      // The Blob is cached; its URL is held by the previews showing it and revoked after the last (useObjectUrl).
      return data;
    },
  });
  const src = useObjectUrl(preview.data);
  const [seconds, setSeconds] = useState(0);
  // The cart mounts one per photo and background (its key), so the count starts at 0 for each.
  useEffect(() => {
    if (!preview.isPending) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [preview.isPending]);

  if (preview.isPending) {
    return (
      <div role="status" data-testid="background-preview-progress" className="flex items-center gap-2 rounded bg-slate-100 p-3 text-sm text-slate-700">
        <span className="h-4 w-4 flex-none animate-spin rounded-full border-2 border-slate-400 border-t-transparent" aria-hidden />
        Cutting your child out for the {name} background… {seconds > 0 ? `${seconds} s` : ""}
      </div>
    );
  }
  if (preview.error) {
    return (
      <p role="alert" className="text-sm text-amber-700">
        The preview on {name} could not be made; the studio will still print it on that background.
      </p>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a watermarked preview fetched with the gallery token
    <img src={src!} alt={`Your photo on the ${name} background`} data-testid="background-preview" className="w-full rounded" />
  );
}
