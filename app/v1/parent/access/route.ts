import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { clientIp } from "@/lib/foundation/http/client-ip";
import { exchangeAccessCode } from "@/lib/services/galleries/exchange-code";
import { accessBody, accessResponse } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic(
    {
      body: accessBody,
      doc: {
        summary: "Exchange a child's gallery access code for a gallery token",
        description:
          "The token (Authorization: Bearer on /v1/parent/...) opens the child's own gallery and the job's group gallery while they are published. A wrong, closed or expired code answers the same 401 INVALID_ACCESS_CODE; wrong codes are limited per address and entries per code (429 TOO_MANY_CODE_ATTEMPTS).",
        response: accessResponse,
      },
    },
    async ({ db, body, req }) => Response.json(await exchangeAccessCode(db, body.code, clientIp(req))),
  ),
});
