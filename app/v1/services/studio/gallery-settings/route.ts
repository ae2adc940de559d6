import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { settingsBody, settingsResponse } from "@/lib/services/galleries/schemas";
import { gallerySettingsOf, toPublicSettings, updateGallerySettings } from "@/lib/services/galleries/settings";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", doc: { summary: "The studio's parent gallery settings", response: settingsResponse } }, async ({ db, principal }) =>
    Response.json(toPublicSettings(await gallerySettingsOf(db, principal.account.id))),
  ),
  PUT: withAccount(
    {
      body: settingsBody,
      role: "admin",
      doc: {
        summary: "Change the studio's gallery settings: expiry, watermark (text or logo), group gallery, downloads",
        description: "A watermark change applies to previews rendered from then on: publish a job again to re-render its previews.",
        response: settingsResponse,
      },
    },
    async ({ db, principal, body }) => Response.json(await updateGallerySettings(db, principal.account.id, body)),
  ),
});
