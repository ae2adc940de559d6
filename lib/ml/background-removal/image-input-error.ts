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
