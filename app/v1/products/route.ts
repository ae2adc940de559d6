import { corsPreflight, withCore, withCorePublic } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { keysetEnvelope, keysetResponse } from "@/lib/services/core/keyset-page";
import { createProduct, listProducts, toPublicProduct } from "@/lib/services/core/products";
import { createProductBody, productListQuery, productResponse } from "@/lib/services/core/product-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // The unauth token sees public products only.
  GET: withCorePublic({ query: productListQuery, doc: { summary: "List products (keyset pages); the unauth token sees public ones only", response: keysetResponse(productResponse) } }, async ({ db, principal, query, req }) => {
    const page = await listProducts(db, { accountId: principal.account.id, publicOnly: principal.publicOnly }, query);
    return Response.json(keysetEnvelope(req, query, page, page.items.map(toPublicProduct), "products"));
  }),
  POST: withCore({ body: createProductBody, doc: { summary: "Create a product", status: 201, response: productResponse } }, async ({ db, principal, body }) =>
    Response.json(await createProduct(db, principal.account.id, body), { status: 201 }),
  ),
});

export const OPTIONS = corsPreflight;
