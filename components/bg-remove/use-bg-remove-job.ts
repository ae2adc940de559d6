"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { jobQueryKey, type BgRemoveJob } from "./types";

const POLL_MS = 2_000;
export const isFinal = (job?: BgRemoveJob) => job?.status === "completed" || job?.status === "failed";

/**
 * A job's state, polled every 2 seconds while `poll` is on and it has not ended;
 * when it ends the wallet is refreshed (a failed job was refunded) and
 * `onFinished` is told. Without `poll` it shows what is cached (the create response).
 */
export function useBgRemoveJob(jobId: string | undefined, poll: boolean, onFinished?: () => void) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: jobQueryKey(jobId ?? ""),
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/bg-remove/{jobId}", { params: { path: { jobId: jobId! } } })),
    enabled: !!jobId && poll,
    staleTime: 0,
    refetchInterval: (q) => (isFinal(q.state.data) ? false : POLL_MS),
  });
  const finished = isFinal(query.data);
  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: ["wallet"] });
    onFinished?.();
  }, [finished, queryClient, onFinished]);
  return query;
}
