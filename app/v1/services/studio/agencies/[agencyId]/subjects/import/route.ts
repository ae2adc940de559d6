import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { importSubjectsCsv } from "@/lib/services/agencies/import-subjects";
import { readCsvBody } from "@/lib/services/agencies/read-csv-body";
import { agencyParams, importQuery, importSubjectsResponse } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // Body: the CSV itself (Content-Type: text/csv), or multipart with a `file` part.
  POST: withAccount({ params: agencyParams, query: importQuery, doc: { summary: "Import a roster CSV, all rows or none", response: importSubjectsResponse, rawBody: { contentType: "text/csv", description: "The CSV itself; or multipart/form-data with a `file` part" } } }, async ({ db, principal, params, query, req }) => {
    const csv = await readCsvBody(req);
    return Response.json(await importSubjectsCsv(db, principal.account.id, params.agencyId, csv, query.on_conflict));
  }),
});
