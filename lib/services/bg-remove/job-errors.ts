import { NonRetriableError } from "inngest";
import { failureMessageFor } from "@/lib/domain/jobs/job-errors";

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

export const GENERIC_FAILURE = "The background could not be removed because of an error on our side.";

/** The error_message for a failed job, from the error that ended its last attempt. */
export const failureMessage = failureMessageFor(["BgRemoveInputError", "BgRemoveTransientError"], GENERIC_FAILURE);
