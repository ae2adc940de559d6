/**
 * The caller's image cannot be used for face work. `code` is the per-file error
 * code the services report; the message is written for people.
 */
export class FaceInputError extends Error {
  constructor(
    readonly code: "UNREADABLE_IMAGE" | "IMAGE_TOO_LARGE" | "IMAGE_TOO_SMALL",
    message: string,
  ) {
    super(message);
    this.name = "FaceInputError";
  }
}

/**
 * Whether `err` is a FaceInputError, by name as well as by class: the engine's
 * worker and its listeners are a process-wide singleton, created by whichever
 * server bundle used them first (the warm-up's, say), so an error it rejects a
 * route's call with may come from another bundle's copy of this class, which
 * `instanceof` in the route's copy does not recognise (seen in production
 * builds: a damaged photo in a synchronous batch answered 500).
 */
export function isFaceInputError(err: unknown): err is FaceInputError {
  return err instanceof FaceInputError || (err instanceof Error && err.name === "FaceInputError" && typeof (err as { code?: unknown }).code === "string");
}
