/** Photos one sort takes: a large picture day is 1,000–3,000 frames. */
export const MAX_SORT_FILES = 10_000;
/** Photos read per job step: a restart reads at most this many again. */
export const FRAMES_PER_STEP = 10;
