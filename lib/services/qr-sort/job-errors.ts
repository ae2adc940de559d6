import { failureMessageFor } from "@/lib/domain/jobs/job-errors";

export const GENERIC_FAILURE = "The sort stopped because of an error on our side; run it again.";

/** The error message of a failed sort, from the error that ended its last attempt (no internals leak). */
export const failureMessage = failureMessageFor([], GENERIC_FAILURE);
