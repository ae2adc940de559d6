/** Shapes of the /v1/services/studio endpoints, as the studio pages read them. */
export const AGENCY_TYPES = ["school", "sports", "corporate", "yearbook", "childcare", "designer"] as const;
export const ICP_TYPES = ["school", "corporate", "sports", "childcare"] as const;
export const JOB_STATUSES = ["draft", "active", "completed", "archived"] as const;

export type Agency = { id: number; name: string; agency_type: (typeof AGENCY_TYPES)[number] };
export type AgencyDetail = Agency & { subject_count: number; job_count: number };
export type AgencyJob = { id: number; name: string; status: (typeof JOB_STATUSES)[number]; icp_type: (typeof ICP_TYPES)[number] };
export type AgencyJobDetail = AgencyJob & { agency_id: number; file_count: number; created_at: string };

export type Subject = {
  id: string;
  agency_id: number;
  student_id: string;
  name: string;
  class_name: string | null;
  reference_photo_url: string | null;
  created_at: string;
  updated_at: string;
};

export type JobFile = {
  id: number;
  job_id: number;
  filename: string;
  content_type: string;
  size: number;
  width: number;
  height: number;
  url: string;
  thumbnail_url: string;
  created_at: string;
};

export const studioKeys = {
  agencies: ["studio", "agencies"] as const,
  agency: (id: number) => ["studio", "agency", id] as const,
  jobs: (agencyId: number) => ["studio", "agency", agencyId, "jobs"] as const,
  job: (agencyId: number, jobId: number) => ["studio", "agency", agencyId, "job", jobId] as const,
  subjects: (agencyId: number) => ["studio", "agency", agencyId, "subjects"] as const,
  files: (jobId: number) => ["studio", "job", jobId, "files"] as const,
};
