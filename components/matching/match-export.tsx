"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { downloadZip } from "@/lib/client/download-files";
import { errorMessage } from "@/components/studio/api-errors";
import { photoNamesByChild } from "./photo-names";
import type { MatchJob } from "./types";

/** Every matched photo of the job, one entry per child in it (a group photo goes to each). */
async function matchedPhotos(jobId: number) {
  const photos: { url: string; studentId: string; name: string }[] = [];
  for (let page = 1; ; page++) {
    const res = unwrap(await studioApi.GET("/v1/services/studio/matching/jobs/{matchJobId}/results", { params: { path: { matchJobId: String(jobId) }, query: { decision: "matched", limit: "100", page: String(page) } } }));
    for (const r of res.data)
      for (const f of r.faces) if (f.decision === "matched" && f.student_id && r.image_url) photos.push({ url: r.image_url, studentId: f.student_id, name: f.name ?? "" });
    if (page >= res.meta.last_page) return photos;
  }
}

/** The job's spreadsheet (CSV, from the API) and each child's photos as a ZIP named for labs and yearbooks. */
export function MatchExport({ job }: { job: MatchJob }) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const zip = useMutation({
    mutationFn: async () => {
      const named = photoNamesByChild(await matchedPhotos(job.id));
      if (named.length === 0) throw new Error("No photo of this job is matched to a child yet.");
      setProgress({ done: 0, total: named.length });
      await downloadZip(named.map((p) => ({ url: p.url, name: p.fileName })), `match-job-${job.id}-photos.zip`, (done) => setProgress({ done, total: named.length }));
    },
    onSettled: () => setProgress(null),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <a href={`/v1/services/studio/matching/jobs/${job.id}/export`} download className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
        Download CSV
      </a>
      <Button variant="secondary" onClick={() => zip.mutate()} disabled={zip.isPending}>
        {progress ? `Preparing photos… ${progress.done} of ${progress.total}` : "Download photos by child (ZIP)"}
      </Button>
      {zip.error ? <span className="text-sm text-red-700">{errorMessage(zip.error)}</span> : null}
    </div>
  );
}
