import type { MatchJob } from "./types";

const LINK = "inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100";

/**
 * The job's spreadsheet and each child's photos named for labs and yearbooks, both
 * made by the API (the ZIP streams from the server, so a whole picture day downloads
 * as one file without passing every photo through the browser).
 */
export function MatchExport({ job }: { job: MatchJob }) {
  const base = `/v1/services/studio/matching/jobs/${job.id}`;
  return (
    <div className="space-y-1" data-testid="match-export">
      <div className="flex flex-wrap items-center gap-2">
        <a href={`${base}/export`} download className={LINK}>
          Download CSV
        </a>
        <a href={`${base}/export.zip`} download className={LINK}>
          Download photos (ZIP)
        </a>
      </div>
      <p className="text-xs text-slate-500">
        The ZIP holds the CSV and every matched child&apos;s photos, named {"{student_id}_{last}_{first}_{nn}"}.jpg; a group photo is under each child in it.
        {job.needs_review ? ` ${job.needs_review} photo${job.needs_review === 1 ? "" : "s"} still in review ${job.needs_review === 1 ? "is" : "are"} left out until decided.` : ""}
      </p>
    </div>
  );
}
