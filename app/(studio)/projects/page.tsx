import type { Metadata } from "next";
import { CreateProjectCard } from "@/components/core/projects/create-project-card";
import { ProjectsList } from "@/components/core/projects/projects-list";

export const metadata: Metadata = { title: "Projects" };

export default function ProjectsPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Projects</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Customer jobs from draft to shipped: submit, approve, produce, ship — or cancel any time before shipping. Link a preflight report to keep the check
          with the job.
        </p>
      </div>
      <CreateProjectCard />
      <ProjectsList />
    </div>
  );
}
