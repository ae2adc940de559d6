/** Where a fix job's files live; deterministic so the failure handler can clean up without step state. */
const base = (accountId: string, jobId: string) => `ai-fix/${accountId}/${jobId}`;
export const outputKey = (accountId: string, jobId: string, ext: string) => `${base(accountId, jobId)}/corrected.${ext}`;
export const stagedKey = (accountId: string, jobId: string, ext: string) => `${base(accountId, jobId)}/staged.${ext}`;
/** Page 1 keeps the name it had before every page was drawn, so older jobs still show their picture. */
export const previewKey = (accountId: string, jobId: string, which: "before" | "after", page = 1) => `${base(accountId, jobId)}/${which}${page === 1 ? "" : `-p${page}`}.jpg`;
