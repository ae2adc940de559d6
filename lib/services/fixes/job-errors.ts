import { NonRetriableError } from "inngest";
import { failureMessageFor } from "@/lib/domain/jobs/job-errors";

/** The file or its report cannot be fixed (deleted, expired, unreadable): retrying will not help. Shown to the customer. */
export class FixInputError extends NonRetriableError {
  constructor(message: string) {
    super(message);
    this.name = "FixInputError";
  }
}

/** An engine failed in a way that may pass (a crashed child process): retried. Shown to the customer. */
export class FixEngineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FixEngineError";
  }
}

export const GENERIC_FAILURE = "The file could not be fixed because of an error on our side; the tokens were refunded.";

/** The errorMessage of a failed job, from the error that ended its last attempt (no internals leak). */
export const failureMessage = failureMessageFor(["FixInputError", "FixEngineError"], GENERIC_FAILURE);
