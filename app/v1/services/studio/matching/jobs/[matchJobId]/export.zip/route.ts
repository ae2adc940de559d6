import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { matchJobZip } from "@/lib/services/matching/export-zip";
import { matchJobParams } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      params: matchJobParams,
      doc: {
        summary: "A match job's photos by child: a ZIP of the job's CSV and every matched child's photos named {student_id}_{last}_{first}_{nn}.jpg, a group photo under each child in it (free)",
        description:
          "Streamed. Holds match-job-{id}.csv (as GET .../export answers it) and one entry per photo and child whose face is matched (by the engine or a reviewer); faces in review or matched to nobody are left out. A job with nothing matched is a ZIP with the CSV alone; 409 MATCH_JOB_NOT_FINISHED while the job is queued or running.",
        produces: "application/zip",
      },
    },
    async ({ db, principal, params }) => {
      const { filename, stream } = await matchJobZip(db, principal.account.id, params.matchJobId);
      return new Response(stream, { headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${filename}"` } });
    },
  ),
});
