import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { parentSheet } from "@/lib/services/orders/price-sheets";
import { parentSheetResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent({ doc: { summary: "What this gallery sells: items, packages, tax rate and shipping options of the job's price sheet", response: parentSheetResponse } }, async ({ db, principal }) =>
    Response.json(await parentSheet(db, principal)),
  ),
});
