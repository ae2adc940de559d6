import { NonRetriableError } from "inngest";

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

const HUMAN = new Set(["FixInputError", "FixEngineError", "NonRetriableError", "JobTimeoutError", "JobInterruptedError"]);

export const GENERIC_FAILURE = "The file could not be fixed because of an error on our side; the tokens were refunded.";

/** The errorMessage of a failed job, from the error that ended its last attempt (no internals leak). */
export function failureMessage(error: { name: string; message: string }): string {
  return HUMAN.has(error.name) && error.message ? error.message : GENERIC_FAILURE;
}
