import { corsPreflight, withCore, withCorePublic } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { deleteProduct, getProduct, toPublicProduct, updateProduct } from "@/lib/services/core/products";
import { productParams, productResponse, updateProductBody } from "@/lib/services/core/product-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // Through the unauth token a private product is a 404, like another account's: its existence is not disclosed.
  GET: withCorePublic({ params: productParams, doc: { summary: "A product", response: productResponse } }, async ({ db, principal, params }) =>
    Response.json(toPublicProduct(await getProduct(db, { accountId: principal.account.id, publicOnly: principal.publicOnly }, params.id))),
  ),
  PATCH: withCore({ params: productParams, body: updateProductBody, doc: { summary: "Update a product", response: productResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await updateProduct(db, principal.account.id, params.id, body)),
  ),
  DELETE: withCore({ params: productParams, doc: { summary: "Delete a product", status: 204 } }, async ({ db, principal, params }) => {
    await deleteProduct(db, principal.account.id, params.id);
    return new Response(null, { status: 204 });
  }),
});

export const OPTIONS = corsPreflight;
