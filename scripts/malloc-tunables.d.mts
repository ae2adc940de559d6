/** glibc's malloc settings for the server: see malloc-tunables.mjs. */
export declare const MALLOC_TUNABLES: string;
