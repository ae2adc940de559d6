/**
 * The caller's image cannot be processed: not an image, damaged, too large, or a
 * format we do not read. The message is written for the customer (it ends up in
 * a job's error_message), so it never contains library internals.
 */
export class ImageInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageInputError";
  }
}

/**
 * By name as well as by class: the engine pool is a process-wide singleton whose
 * worker listeners belong to whichever server bundle started it, so its errors
 * may come from another bundle's copy of this class (see isFaceInputError).
 */
export function isImageInputError(err: unknown): err is ImageInputError {
  return err instanceof ImageInputError || (err instanceof Error && err.name === "ImageInputError");
}
