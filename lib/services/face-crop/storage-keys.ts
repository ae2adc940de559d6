/** Where a task's files live; deterministic so clean-up needs no stored state. */
export const taskPrefix = (accountId: string, taskId: string) => `face-crop/${accountId}/${taskId}/`;
export const sourceKey = (accountId: string, taskId: string, itemId: string) => `${taskPrefix(accountId, taskId)}${itemId}/source`;
export const outputKeys = (accountId: string, taskId: string, itemId: string, version: number) => ({
  original: `${taskPrefix(accountId, taskId)}${itemId}/v${version}-original.jpg`,
  medium: `${taskPrefix(accountId, taskId)}${itemId}/v${version}-medium.jpg`,
});
