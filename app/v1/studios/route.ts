import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { listStudios } from "@/lib/services/team/members";
import { studiosResponse } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ allowWithoutTwoFactor: true, doc: { summary: "The studios the signed-in person belongs to (choose one with X-Studio-Id)", response: studiosResponse } }, async ({ db, principal }) =>
    Response.json(principal.user ? await listStudios(db, principal.user.id, principal.account.id) : { data: [{ id: principal.account.id, name: principal.account.name, role: principal.role, current: true }] }),
  ),
});
