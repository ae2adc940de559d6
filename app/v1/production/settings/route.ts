import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { manifestColumns, saveManifestColumns } from "@/lib/services/production/manifest";
import { labProfile } from "@/lib/services/production/lab-profile";
import { settingsBody, settingsResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", doc: { summary: "The studio's production settings: the lab manifest's column names (its lab's import format) and the lab's colour profile", response: settingsResponse } }, async ({ db, principal }) =>
    Response.json({ manifest_columns: await manifestColumns(db, principal.account.id), lab_profile: await labProfile(db, principal.account.id) }),
  ),
  PUT: withAccount({ role: "admin", body: settingsBody, doc: { summary: "Rename the lab manifest's columns for the studio's lab", response: settingsResponse } }, async ({ db, principal, body }) =>
    Response.json({ ...(await saveManifestColumns(db, principal.account.id, body.manifest_columns)), lab_profile: await labProfile(db, principal.account.id) }),
  ),
});
