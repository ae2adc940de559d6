import { withCore } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { keysetEnvelope, keysetResponse } from "@/lib/services/core/keyset-page";
import { createProject, listProjects, toPublicProject } from "@/lib/services/core/projects";
import { createProjectBody, projectListQuery, projectResponse } from "@/lib/services/core/project-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withCore({ query: projectListQuery, doc: { summary: "List projects (keyset pages)", response: keysetResponse(projectResponse) } }, async ({ db, principal, query, req }) => {
    const page = await listProjects(db, principal.account.id, query);
    return Response.json(keysetEnvelope(req, query, page, page.items.map(toPublicProject), "projects"));
  }),
  POST: withCore({ body: createProjectBody, doc: { summary: "Create a project", status: 201, response: projectResponse } }, async ({ db, principal, body }) =>
    Response.json(await createProject(db, principal.account.id, body), { status: 201 }),
  ),
});
