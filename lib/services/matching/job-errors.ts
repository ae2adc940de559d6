import { failureMessageFor } from "@/lib/domain/jobs/job-errors";

export const MATCH_GENERIC_FAILURE = "The match job stopped because of an error on our side.";
export const BUILD_GENERIC_FAILURE = "The build stopped because of an error on our side; run it again (finished embeddings are kept).";

/** The error message of a failed match job, from the error that ended its last attempt (no internals leak). */
export const matchFailureMessage = failureMessageFor([], MATCH_GENERIC_FAILURE);

/** The error message of a failed reference build, likewise. */
export const buildFailureMessage = failureMessageFor([], BUILD_GENERIC_FAILURE);
