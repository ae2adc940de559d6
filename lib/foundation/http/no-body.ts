import { z } from "zod";

/**
 * The body schema of a write endpoint that takes no fields (POST .../rotate): nothing
 * or `{}` is accepted; malformed JSON, or fields the endpoint would silently ignore,
 * are a 400 like anywhere else. (Endpoints that read multipart or CSV bodies
 * themselves have no body schema at all.)
 */
export const noBody = z.strictObject({});
