import { failureMessageFor } from "@/lib/domain/jobs/job-errors";

/** A failed batch's message: the runtime's own words (time limit) or this sentence; no internals leak. */
export const batchFailureMessage = failureMessageFor([], "Rendering the batch stopped because of an error on our side; its rendered files are kept, make a new batch for the rest.");
