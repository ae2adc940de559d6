import { NonRetriableError } from "inngest";

/**
 * Errors of a background removal job. Their messages are shown to the customer
 * as the job's error_message, so they say what went wrong and what to do.
 */

/** The caller's input cannot work (not an image, too large, a URL that answers 404 ...): retrying will not help. */
export class BgRemoveInputError extends NonRetriableError {
  constructor(message: string) {
    super(message);
    this.name = "BgRemoveInputError";
  }
}

/** Something that may pass (source server down, model crashed): the job is retried. */
export class BgRemoveTransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BgRemoveTransientError";
  }
}

/** Errors whose message is written for people; anything else is summarised (no internals leak). */
const HUMAN = new Set(["BgRemoveInputError", "BgRemoveTransientError", "NonRetriableError", "JobTimeoutError", "JobInterruptedError"]);

export const GENERIC_FAILURE = "The background could not be removed because of an error on our side.";

/** The error_message for a failed job, from the error that ended its last attempt. */
export function failureMessage(error: { name: string; message: string }): string {
  return HUMAN.has(error.name) && error.message ? error.message : GENERIC_FAILURE;
}
