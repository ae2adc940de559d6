"use client";

import { useQuery } from "@tanstack/react-query";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import type { Subject } from "@/components/agencies/types";
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
        const res = unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/subjects", { params: { path: { agencyId: String(agencyId) }, query: { limit: "100", page: String(page), sort: "name" } } }));
        all.push(...res.data);
        if (!res.links.next) break;
      }
      return new Map(all.map((s) => [s.id, s]));
    },
  });
}
