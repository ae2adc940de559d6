"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api-fetch";
import type { Paginated } from "@/lib/client/list-envelopes";
import type { Subject } from "@/components/studio/types";
import { matchingKeys } from "./types";

/** The whole roster of an agency (the review shows any subject's portrait and name), page by page. */
export function useRoster(agencyId: number | undefined) {
  return useQuery({
    queryKey: matchingKeys.roster(agencyId ?? 0),
    enabled: agencyId !== undefined,
    staleTime: 60_000,
    queryFn: async () => {
      const all: Subject[] = [];
      for (let page = 1; ; page++) {
        const res = await apiFetch<Paginated<Subject>>(`/v1/services/studio/agencies/${agencyId}/subjects?limit=100&page=${page}&sort=name`);
        all.push(...res.data);
        if (!res.links.next) break;
      }
      return new Map(all.map((s) => [s.id, s]));
    },
  });
}
