import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { readMultipart } from "@/lib/foundation/http/read-multipart";
import { deleteLabProfile, saveLabProfile } from "@/lib/services/production/lab-profile";
import { labProfileForm, labProfileResponse } from "@/lib/services/production/schemas";
import { MAX_LAB_PROFILE_BYTES } from "@/lib/services/production/values";

export const dynamic = "force-dynamic";

// The studio's lab colour profile: print files rendered after it is set are converted into it and carry it.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withAccount(
    {
      role: "admin",
      doc: {
        summary: "Set the lab's ICC colour profile (an RGB output or display profile): print files are converted from sRGB into it and carry it",
        response: labProfileResponse,
        rawBody: { contentType: "multipart/form-data", schema: labProfileForm, description: `\`file\`: the lab's .icc/.icm profile (RGB, output or display class), at most ${MAX_LAB_PROFILE_BYTES / 1024 / 1024} MB` },
      },
    },
    async ({ db, principal, req }) => Response.json(await saveLabProfile(db, principal.account.id, await readMultipart(req, MAX_LAB_PROFILE_BYTES + 64 * 1024))),
  ),
  DELETE: withAccount({ role: "admin", doc: { summary: "Forget the lab's colour profile: print files rendered from now on are sRGB", response: labProfileResponse } }, async ({ db, principal }) =>
    Response.json(await deleteLabProfile(db, principal.account.id)),
  ),
});
