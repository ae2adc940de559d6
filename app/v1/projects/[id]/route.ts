import { withCore } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { deleteProject, getProject, toPublicProject, updateProject } from "@/lib/services/core/projects";
import { projectParams, projectResponse, updateProjectBody } from "@/lib/services/core/project-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withCore({ params: projectParams, doc: { summary: "Get a project", response: projectResponse } }, async ({ db, principal, params }) =>
    Response.json(toPublicProject(await getProject(db, principal.account.id, params.id))),
  ),
  // Edits and status moves (see PROJECT_TRANSITIONS); closed projects are read-only.
  PATCH: withCore({ params: projectParams, body: updateProjectBody, doc: { summary: "Edit a project or move its status", response: projectResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await updateProject(db, principal.account.id, params.id, body)),
  ),
  DELETE: withCore({ params: projectParams, doc: { summary: "Delete a project", status: 204 } }, async ({ db, principal, params }) => {
    await deleteProject(db, principal.account.id, params.id);
    return new Response(null, { status: 204 });
  }),
});
