import { z } from "zod";

/** POST /v1/uploads: a multipart body with one part named `file`. */
export const uploadForm = z.object({ file: z.string().meta({ format: "binary", description: "A JPEG, PNG, WebP, TIFF or PDF." }) });

/** POST /v1/uploads -> 201 (createUpload). */
export const uploadResponse = z.object({
  id: z.string(),
  url: z.string().meta({ description: "Signed URL every endpoint accepts as an image or file URL." }),
  expires_at: z.iso.datetime({ offset: true }),
  content_type: z.string(),
  size: z.number().int().positive(),
});
