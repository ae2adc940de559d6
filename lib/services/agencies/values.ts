/**
 * The studio's fixed value lists for the pages: the one copy is beside the database
 * enums (lib/foundation/db/schema/studio-values.ts). Client-safe: no server imports.
 */
export { AGENCY_JOB_STATUSES, AGENCY_TYPES, ICP_TYPES, type AgencyJobStatus, type AgencyType, type IcpType } from "@/lib/foundation/db/schema/studio-values";
