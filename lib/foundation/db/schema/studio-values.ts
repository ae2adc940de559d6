// The studio's fixed value lists, the one copy: the database enums below (studio.ts),
// the API schemas and the pages take them from here (pages through
// lib/services/agencies/values.ts). No imports, so a page may load it.

/** What an agency is; it picks the default crop preset and wording. */
export const AGENCY_TYPES = ["school", "sports", "corporate", "yearbook", "childcare", "designer"] as const;
export type AgencyType = (typeof AGENCY_TYPES)[number];

/** The crop presets of face crop (lib/services/face-crop/presets.ts holds their geometry). */
export const ICP_TYPES = ["school", "corporate", "sports", "childcare"] as const;
export type IcpType = (typeof ICP_TYPES)[number];

/** Where a job (a photo shoot) stands. */
export const AGENCY_JOB_STATUSES = ["draft", "active", "completed", "archived"] as const;
export type AgencyJobStatus = (typeof AGENCY_JOB_STATUSES)[number];
