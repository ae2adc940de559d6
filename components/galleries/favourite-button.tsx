"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { parentApi } from "@/lib/client/parent-session";
import { unwrap } from "@/lib/client/typed-api";

/** A heart on a photo: marks or unmarks it for the child's code. */
export function FavouriteButton({ token, photoId, favourite, large = false }: { token: string; photoId: string; favourite: boolean; large?: boolean }) {
  const queries = useQueryClient();
  const toggle = useMutation({
    mutationFn: async () => {
      const api = parentApi(token);
      const opts = { params: { path: { photoId } } };
      return unwrap(favourite ? await api.DELETE("/v1/parent/favourites/{photoId}", opts) : await api.PUT("/v1/parent/favourites/{photoId}", opts));
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ["parent"] }),
  });
  const on = toggle.isPending ? !favourite : favourite;
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label={on ? "Remove from favourites" : "Add to favourites"}
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        toggle.mutate();
      }}
      className={`flex items-center justify-center rounded-full bg-white/90 shadow ${large ? "h-12 w-12 text-2xl" : "h-10 w-10 text-xl"} ${on ? "text-rose-600" : "text-slate-500"}`}
    >
      {on ? "♥" : "♡"}
    </button>
  );
}
