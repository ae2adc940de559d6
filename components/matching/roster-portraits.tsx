"use client";

import { useQuery } from "@tanstack/react-query";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import type { Subject } from "@/components/agencies/types";
import { Portrait } from "./face-photo";

/**
 * Every reference photo of a roster child as the reviewer compares the face with it:
 * the uploaded portraits (GET .../portraits) and the contract's reference_photo_url,
 * the first large and the others small beside it. "no portrait" only when the child
 * really has none.
 */
export function RosterPortraits({ agencyId, subject, size = 160 }: { agencyId: number; subject: Subject | undefined; size?: number }) {
  const portraits = useQuery({
    queryKey: ["studio", "agency", agencyId, "subject", subject?.id ?? "", "references", "portraits"],
    enabled: subject !== undefined,
    staleTime: 60_000,
    queryFn: async () =>
      unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/portraits", { params: { path: { agencyId: String(agencyId), subjectId: subject!.id } } })),
  });
  const name = subject?.name ?? "?";
  if (subject && portraits.isPending) return <div role="status" aria-label="Loading the portraits" className="animate-pulse rounded-md bg-slate-100" style={{ width: size, height: size }} />;
  const urls = [
    ...(portraits.data?.portraits.map((p) => p.url) ?? []),
    ...(portraits.data?.reference_photo_url ? [portraits.data.reference_photo_url] : subject?.reference_photo_url ? [subject.reference_photo_url] : []),
  ];
  const [first, ...rest] = urls;
  return (
    <div className="flex items-end gap-1" data-testid="roster-portraits" data-count={urls.length}>
      <Portrait src={first} name={name} size={size} />
      {rest.length ? (
        <div className="flex flex-col gap-1">
          {rest.slice(0, 2).map((src, i) => (
            <Portrait key={i} src={src} name={name} size={Math.round(size / 2) - 2} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
