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
