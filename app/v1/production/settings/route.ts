import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { manifestColumns, saveManifestColumns } from "@/lib/services/production/manifest";
import { settingsBody, settingsResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", doc: { summary: "The lab manifest's column names (the studio's lab import format)", response: settingsResponse } }, async ({ db, principal }) =>
    Response.json({ manifest_columns: await manifestColumns(db, principal.account.id) }),
  ),
  PUT: withAccount({ role: "admin", body: settingsBody, doc: { summary: "Rename the lab manifest's columns for the studio's lab", response: settingsResponse } }, async ({ db, principal, body }) =>
    Response.json(await saveManifestColumns(db, principal.account.id, body.manifest_columns)),
  ),
});
