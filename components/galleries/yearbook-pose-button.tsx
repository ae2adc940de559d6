"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parentApi } from "@/lib/client/parent-session";
import { unwrap } from "@/lib/client/typed-api";

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });

/**
 * Under a photo of the child's own gallery: "Use for the yearbook" until the
 * studio's deadline, then the choice shown read-only. Nothing when the studio
 * takes no yearbook choice for the job.
 */
export function YearbookPoseButton({ token, photoId }: { token: string; photoId: string }) {
  const queries = useQueryClient();
  const pose = useQuery({ queryKey: ["parent", "yearbook-pose"], queryFn: async () => unwrap(await parentApi(token).GET("/v1/parent/yearbook-pose")) });
  const choose = useMutation({
    mutationFn: async () => unwrap(await parentApi(token).PUT("/v1/parent/yearbook-pose", { body: { photo_id: photoId } })),
    onSuccess: (data) => queries.setQueryData(["parent", "yearbook-pose"], data),
    onError: () => void queries.invalidateQueries({ queryKey: ["parent", "yearbook-pose"] }),
  });
  if (!pose.data?.deadline) return null;
  const { open, deadline } = pose.data;
  const chosen = pose.data.photo_id === photoId;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm" data-testid="yearbook-pose">
      {chosen ? <span className="font-medium text-emerald-700">✓ This is the yearbook pose</span> : null}
      {open && !chosen ? (
        <button type="button" onClick={() => choose.mutate()} disabled={choose.isPending} className="rounded-md border border-brand-600 px-3 py-2 font-medium text-brand-700 disabled:opacity-60">
          Use for the yearbook
        </button>
      ) : null}
      <span className="text-slate-600">{open ? `You can choose until ${day(deadline)}.` : `The yearbook choice closed on ${day(deadline)}.`}</span>
      {choose.isError ? (
        <span role="alert" className="text-rose-700">
          {choose.error.message}
        </span>
      ) : null}
    </div>
  );
}
