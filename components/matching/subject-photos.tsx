"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import type { Subject } from "@/components/agencies/types";
import { FaceThumb } from "./face-photo";
import { RosterPortraits } from "./roster-portraits";
import type { MatchJob } from "./types";

/** Every photo matched to one child (group photos included), for a last look before they are sold. */
export function SubjectPhotos({ job, roster }: { job: MatchJob; roster: Map<string, Subject> | undefined }) {
  const subjects = [...(roster?.values() ?? [])];
  const [subjectId, setSubjectId] = useState<string>("");
  const chosen = subjectId || subjects[0]?.id || "";
  const photos = useQuery({
    queryKey: ["matching", "job", job.id, "subject", chosen],
    enabled: Boolean(chosen),
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/matching/jobs/{matchJobId}/results", { params: { path: { matchJobId: String(job.id) }, query: { subject_id: chosen, limit: "100" } } })),
  });
  const subject = roster?.get(chosen);
  return (
    <Card>
      <label className="block text-sm text-slate-700">
        Child:
        <select className="ml-2 rounded-md border border-slate-300 px-2 py-1 text-sm" value={chosen} onChange={(e) => setSubjectId(e.target.value)} aria-label="Child">
          {subjects.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.student_id})
            </option>
          ))}
        </select>
      </label>
      <div className="mt-4 flex gap-4">
        <RosterPortraits agencyId={job.agency_id} subject={subject} size={120} />
        <div className="flex-1">
          {photos.error ? <QueryError title="Could not load the photos." error={photos.error} onRetry={() => void photos.refetch()} /> : null}
          {photos.data ? <p className="text-sm text-slate-600">{photos.data.meta.total} photo(s) matched to {subject?.name}.</p> : null}
          <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="subject-photos">
            {photos.data?.data.map((r) => (
              <figure key={`${r.file_id}-${r.filename}`} className="text-xs text-slate-600">
                {r.thumbnail_url && r.width && r.height ? (
                  <FaceThumb src={r.thumbnail_url} width={r.width} height={r.height} box={r.faces.find((f) => f.subject_id === chosen)?.face_box ?? null} alt={`${r.filename}, ${subject?.name ?? ""}'s face`} />
                ) : null}
                <figcaption className="truncate">
                  {r.filename}
                  {r.faces.length > 1 ? ` · group of ${r.faces.length}` : ""}
                </figcaption>
              </figure>
            ))}
          </div>
        </div>
      </div>
    </Card>
  );
}
