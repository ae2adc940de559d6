import { z } from "zod";
import { PROJECT_STATUSES } from "./project-status";
import { listQueryShape, resolveListCursor } from "./list-query";

const fields = {
  name: z.string().trim().min(1, "Name the project.").max(200),
  product_id: z.string().trim().min(1, "Give the product's id (prd_...).").max(64),
  // Stored as a reference only (never fetched here): preflight fetches it with its own URL checks.
  design_file_url: z.url({ protocol: /^https?$/, error: "An http(s) URL." }).max(2048).nullable(),
  preflight_report_id: z
    .string()
    .trim()
    .regex(/^rpt_[A-Za-z0-9]{1,60}$/, "A preflight report id (rpt_...).")
    .nullable(),
  customer_email: z.email("An email address.").max(254).toLowerCase().nullable(),
};

export const createProjectBody = z.strictObject({
  name: fields.name,
  product_id: fields.product_id,
  design_file_url: fields.design_file_url.optional(),
  preflight_report_id: fields.preflight_report_id.optional(),
  customer_email: fields.customer_email.optional(),
  status: z.literal("draft", { error: "New projects start as draft; move them on with PATCH." }).optional(),
});
export type CreateProjectInput = z.output<typeof createProjectBody>;

/** Needed to submit or approve a project whose preflight report has errors; recorded on the project. */
const override = z.strictObject(
  {
    reason: z
      .string({ error: "Say why the project goes ahead despite the preflight errors (override.reason)." })
      .trim()
      .min(3, "Say why the project goes ahead despite the preflight errors (at least 3 characters).")
      .max(500, "At most 500 characters."),
  },
  { error: "override must be an object: { reason }." },
);

export const updateProjectBody = z
  .strictObject({ ...fields, status: z.enum(PROJECT_STATUSES), override })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "Send at least one field to change.")
  .refine((b) => b.override === undefined || b.status !== undefined, { path: ["override"], message: "override goes with a status move (to submitted or approved)." });
export type UpdateProjectInput = z.output<typeof updateProjectBody>;

export const projectParams = z.object({ id: z.string().min(1).max(64) });

export const projectListQuery = z
  .strictObject({
    ...listQueryShape(PROJECT_STATUSES),
    product_id: z.string().min(1).max(64).optional(),
    /** The projects that use one preflight report (the viewer lists them). */
    preflight_report_id: z.string().min(1).max(64).optional(),
  })
  .transform(resolveListCursor);
export type ProjectListQuery = z.output<typeof projectListQuery>;

/** A project as every project route answers it (toPublicProject), for the API description (lib/http/openapi). */
const isoTs = z.iso.datetime({ offset: true });
export const projectResponse = z.object({
  id: z.string(),
  name: z.string(),
  product_id: z.string(),
  status: z.enum(PROJECT_STATUSES),
  design_file_url: z.string().nullable(),
  preflight_report_id: z.string().nullable(),
  customer_email: z.string().nullable(),
  /** Submissions or approvals past a failing preflight report, each with its reason (the preflight gate). */
  preflight_overrides: z.array(z.object({ status: z.string(), reason: z.string(), report_id: z.string(), report_status: z.string(), errors: z.number().int(), warnings: z.number().int(), at: z.string() })),
  created_at: isoTs,
  updated_at: isoTs,
});
