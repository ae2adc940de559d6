import { failureMessageFor } from "@/lib/domain/jobs/job-errors";

export const GENERIC_FAILURE = "The batch stopped because of an error on our side.";

/** The error message of a failed task, from the error that ended its last attempt (no internals leak). */
export const failureMessage = failureMessageFor([], GENERIC_FAILURE);
