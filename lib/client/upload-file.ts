import { newIdempotencyKey } from "./idempotency-key";
import { studioApi, unwrap } from "./typed-api";

/**
 * POST /v1/uploads through the typed client: the document types the `file` part as a
 * string, so the body names the file and the serializer sends the file itself.
 */
export async function uploadFile(file: File) {
  return unwrap(
    await studioApi.POST("/v1/uploads", {
      params: { header: { "Idempotency-Key": newIdempotencyKey() } },
      body: { file: file.name },
      bodySerializer: () => {
        const form = new FormData();
        form.append("file", file);
        return form;
      },
    }),
  );
}
