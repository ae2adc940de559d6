import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { preflightReports, products, projects, type PreflightOverride } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { isForeignKeyViolation } from "./db-errors";
import { keysetPage, type KeysetStep } from "./keyset-page";
import { keysetSql, rowKey } from "./keyset-sql";
import { canMoveProject, isFinalStatus, PROJECT_TRANSITIONS, type ProjectStatus } from "./project-status";
import type { CreateProjectInput, ProjectListQuery, UpdateProjectInput } from "./project-schemas";

export type ProjectRow = typeof projects.$inferSelect;

export function toPublicProject(row: ProjectRow) {
  return {
    id: row.id,
    name: row.name,
    product_id: row.productId,
    status: row.status as ProjectStatus,
    design_file_url: row.designFileUrl,
    preflight_report_id: row.preflightReportId,
    customer_email: row.customerEmail,
    preflight_overrides: row.preflightOverrides,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type PublicProject = ReturnType<typeof toPublicProject>;

/** A referenced id that is unknown or another account's: 404, naming the body field. */
const referenceNotFound = (what: string, field: string, id: string) =>
  new ApiError(404, "NOT_FOUND", `${what} ${id} not found.`, { field });

/** New work only goes to a live product of the same account. */
async function assertUsableProduct(db: Db, accountId: string, productId: string): Promise<void> {
  const [row] = await db
    .select({ status: products.status })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.accountId, accountId)));
  if (!row) throw referenceNotFound("Product", "product_id", productId);
  if (row.status === "archived") {
    throw new ApiError(409, "PRODUCT_ARCHIVED", `Product ${productId} is archived: reactivate it or choose another product.`, { field: "product_id" });
  }
}

async function assertOwnReport(db: Db, accountId: string, reportId: string): Promise<void> {
  const [row] = await db
    .select({ id: preflightReports.id })
    .from(preflightReports)
    .where(and(eq(preflightReports.id, reportId), eq(preflightReports.accountId, accountId)));
  if (!row) throw referenceNotFound("Preflight report", "preflight_report_id", reportId);
}

/** The product or report was deleted between our check and the write (the foreign key caught it). */
function referenceGone(err: unknown): never {
  if (isForeignKeyViolation(err)) throw new ApiError(404, "NOT_FOUND", "The product or preflight report was deleted meanwhile.", { field: "product_id" });
  throw err;
}

export async function createProject(db: Db, accountId: string, input: CreateProjectInput) {
  await assertUsableProduct(db, accountId, input.product_id);
  if (input.preflight_report_id) await assertOwnReport(db, accountId, input.preflight_report_id);
  const [row] = await db
    .insert(projects)
    .values({
      id: newId("prj"),
      accountId,
      name: input.name,
      productId: input.product_id,
      status: "draft",
      designFileUrl: input.design_file_url ?? null,
      preflightReportId: input.preflight_report_id ?? null,
      customerEmail: input.customer_email ?? null,
    })
    .returning()
    .catch(referenceGone);
  return toPublicProject(row!);
}

export async function getProject(db: Db, accountId: string, id: string): Promise<ProjectRow> {
  const [row] = await db.select().from(projects).where(and(eq(projects.id, id), eq(projects.accountId, accountId)));
  if (!row) throw notFound("Project");
  return row;
}

const SORT_COLUMNS = { created_at: projects.createdAt, updated_at: projects.updatedAt, name: projects.name } as const;

export function projectPageQuery(db: Db, accountId: string, q: ProjectListQuery, step: KeysetStep) {
  const { where, orderBy } = keysetSql(SORT_COLUMNS[q.sortBy], projects.id, q.sortBy, q.order, step);
  return db
    .select()
    .from(projects)
    .where(
      and(
        eq(projects.accountId, accountId),
        q.status ? eq(projects.status, q.status) : undefined,
        q.product_id ? eq(projects.productId, q.product_id) : undefined,
        q.preflight_report_id ? eq(projects.preflightReportId, q.preflight_report_id) : undefined,
        where,
      ),
    )
    .orderBy(...orderBy)
    .limit(step.limit);
}

export async function listProjects(db: Db, accountId: string, q: ProjectListQuery) {
  return keysetPage(q, (step) => projectPageQuery(db, accountId, q, step), (row) => rowKey(row, q.sortBy));
}

/** Moves that put a design in front of production: a report with errors must not pass them silently. */
export const PREFLIGHT_GATED: readonly ProjectStatus[] = ["submitted", "approved"];

/** The linked report's verdict and counts (the account's own report, or null when unlinked or deleted). */
async function reportVerdict(db: Db, accountId: string, reportId: string | null) {
  if (!reportId) return null;
  const [row] = await db
    .select({ id: preflightReports.id, status: preflightReports.status, issues: preflightReports.issues })
    .from(preflightReports)
    .where(and(eq(preflightReports.id, reportId), eq(preflightReports.accountId, accountId)));
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    errors: row.issues.filter((i) => i.severity === "error").length,
    warnings: row.issues.filter((i) => i.severity === "warning").length,
  };
}

/**
 * The preflight gate: moving to submitted or approved while the linked report
 * has errors is refused (409 PREFLIGHT_HAS_ERRORS, naming the report and its
 * error count) unless the request carries `override: { reason }`; the override
 * is then recorded on the project. Returns the record to append, or null.
 */
async function preflightGate(db: Db, accountId: string, current: ProjectRow, patch: UpdateProjectInput): Promise<PreflightOverride | null> {
  const to = patch.status;
  if (to === undefined || to === current.status || !PREFLIGHT_GATED.includes(to)) return null;
  const reportId = patch.preflight_report_id !== undefined ? patch.preflight_report_id : current.preflightReportId;
  const verdict = await reportVerdict(db, accountId, reportId);
  if (!verdict || verdict.errors === 0) return null;
  const verb = to === "submitted" ? "submit" : "approve";
  if (!patch.override) {
    throw new ApiError(
      409,
      "PREFLIGHT_HAS_ERRORS",
      `Preflight report ${verdict.id} has ${verdict.errors} error${verdict.errors === 1 ? "" : "s"}${verdict.warnings ? ` and ${verdict.warnings} warning${verdict.warnings === 1 ? "" : "s"}` : ""}. To ${verb} the project anyway, send override: { reason } saying why; it is recorded on the project.`,
      { field: "override", report_id: verdict.id, report_status: verdict.status, errors: verdict.errors, warnings: verdict.warnings, status: to },
    );
  }
  return { status: to, reason: patch.override.reason, report_id: verdict.id, report_status: verdict.status, errors: verdict.errors, warnings: verdict.warnings, at: new Date().toISOString() };
}

/**
 * Edits and status moves. The row is locked for the check-then-write so two
 * concurrent moves cannot both pass the transition check.
 */
export async function updateProject(db: Db, accountId: string, id: string, patch: UpdateProjectInput) {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(projects)
      .where(and(eq(projects.id, id), eq(projects.accountId, accountId)))
      .for("update");
    if (!current) throw notFound("Project");
    const from = current.status as ProjectStatus;
    // A closed project answers a PATCH that changes nothing (a client retrying a
    // move whose answer it lost) with the project as it is, and refuses any real change.
    if (isFinalStatus(from) && !changesAnything(current, patch)) return toPublicProject(current);
    if (isFinalStatus(from)) {
      throw new ApiError(409, "PROJECT_CLOSED", `The project is ${from}: closed projects cannot be changed.`, { field: "status", status: from });
    }
    if (patch.status !== undefined && patch.status !== from && !canMoveProject(from, patch.status)) {
      const allowed = PROJECT_TRANSITIONS[from];
      throw new ApiError(
        409,
        "INVALID_STATUS_TRANSITION",
        `A project cannot move from ${from} to ${patch.status}. From ${from} it can move to: ${allowed.join(", ")}.`,
        { field: "status", from, to: patch.status, allowed },
      );
    }
    if (patch.product_id !== undefined && patch.product_id !== current.productId) await assertUsableProduct(tx, accountId, patch.product_id);
    if (patch.preflight_report_id) await assertOwnReport(tx, accountId, patch.preflight_report_id);
    const override = await preflightGate(tx, accountId, current, patch);
    const [row] = await tx
      .update(projects)
      .set({ ...patchColumns(patch), ...(override ? { preflightOverrides: [...current.preflightOverrides, override] } : {}), updatedAt: sql`now()` })
      .where(eq(projects.id, id))
      .returning()
      .catch(referenceGone);
    return toPublicProject(row!);
  });
}

/** The PATCH body as columns; a field not sent is undefined, which drizzle leaves unchanged. */
function patchColumns(patch: UpdateProjectInput) {
  return {
    name: patch.name,
    productId: patch.product_id,
    status: patch.status,
    designFileUrl: patch.design_file_url,
    preflightReportId: patch.preflight_report_id,
    customerEmail: patch.customer_email,
  } satisfies Partial<Record<keyof ProjectRow, unknown>>;
}

/** Whether applying `patch` would alter any stored field (unsent fields alter nothing). */
function changesAnything(current: ProjectRow, patch: UpdateProjectInput): boolean {
  return Object.entries(patchColumns(patch)).some(([column, value]) => value !== undefined && value !== current[column as keyof ProjectRow]);
}

export async function deleteProject(db: Db, accountId: string, id: string): Promise<void> {
  const [row] = await db
    .delete(projects)
    .where(and(eq(projects.id, id), eq(projects.accountId, accountId)))
    .returning({ id: projects.id });
  if (!row) throw notFound("Project");
}
