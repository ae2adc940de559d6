// Project lifecycle, shared by the API (enforcement) and the studio (which
// buttons to show). No server imports: client components use it too.

export const PROJECT_STATUSES = ["draft", "submitted", "approved", "in_production", "shipped", "cancelled"] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/**
 * The allowed moves. Forward one step at a time; `cancelled` from any state
 * that has not shipped. `shipped` and `cancelled` are final: a closed project
 * is read-only.
 */
export const PROJECT_TRANSITIONS: Record<ProjectStatus, readonly ProjectStatus[]> = {
  draft: ["submitted", "cancelled"],
  submitted: ["approved", "cancelled"],
  approved: ["in_production", "cancelled"],
  in_production: ["shipped", "cancelled"],
  shipped: [],
  cancelled: [],
};

export function isFinalStatus(status: ProjectStatus): boolean {
  return PROJECT_TRANSITIONS[status].length === 0;
}

export function canMoveProject(from: ProjectStatus, to: ProjectStatus): boolean {
  return PROJECT_TRANSITIONS[from].includes(to);
}

export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  draft: "Draft",
  submitted: "Submitted",
  approved: "Approved",
  in_production: "In production",
  shipped: "Shipped",
  cancelled: "Cancelled",
};
