/** Contract 4.6 and 8: the threshold's range and the price of a matched photo. */
export const MIN_THRESHOLD = 0.5;
export const MAX_THRESHOLD = 0.99;
export const MATCH_PRICE_PER_FILE = 6;
export const MATCH_OPERATION = "face_match";
/** Contract 8: from this many subjects with photos, references are built as a job. */
export const ASYNC_REFERENCES_FROM = 20;
/** Ids one request may list; a whole job goes by job_id. */
export const MAX_MATCH_FILE_IDS = 1000;
/** Photos one match job may take (a picture day is about 3,000). */
export const MAX_MATCH_JOB_FILES = 10_000;
/** Faces per photo the engine describes (a class photo has about 30). */
export const MAX_FACES_PER_PHOTO = 40;
/** References a subject keeps from confirmed matches (the oldest is replaced). */
export const MAX_CONFIRMED_REFERENCES = 5;
