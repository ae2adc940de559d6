import { PROJECT_STATUS_LABELS, type ProjectStatus } from "@/lib/services/core/project-status";

const PROJECT_STYLES: Record<ProjectStatus, string> = {
  draft: "bg-slate-100 text-slate-700",
  submitted: "bg-amber-100 text-amber-800",
  approved: "bg-sky-100 text-sky-800",
  in_production: "bg-indigo-100 text-indigo-800",
  shipped: "bg-emerald-100 text-emerald-800",
  cancelled: "bg-red-100 text-red-700",
};

export function ProjectStatusBadge({ status }: { status: ProjectStatus }) {
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${PROJECT_STYLES[status]}`}>{PROJECT_STATUS_LABELS[status]}</span>;
}

export function ProductStatusBadge({ status, isPublic }: { status: "active" | "archived"; isPublic: boolean }) {
  return (
    <span className="inline-flex gap-1">
      <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${status === "active" ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-600"}`}>
        {status === "active" ? "Active" : "Archived"}
      </span>
      {isPublic ? <span className="inline-flex rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">Public</span> : null}
    </span>
  );
}
