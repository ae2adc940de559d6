/** Where a job's files live; deterministic so a failure handler can clean up without step state. */
export const sourceCopyKey = (accountId: string, jobId: string) => `bg-remove/${accountId}/${jobId}/source`;
export const outputKey = (accountId: string, jobId: string) => `bg-remove/${accountId}/${jobId}/cutout.png`;
