import { studioApi, unwrap } from "@/lib/client/typed-api";
import { MAX_SUBJECTS, newRow, type RosterRowDraft } from "./roster-rows";

/** An agency's whole roster (up to the 2,000 a run takes), following the list's pages. */
export async function loadAgencyRoster(agencyId: number): Promise<RosterRowDraft[]> {
  const rows: RosterRowDraft[] = [];
  for (let page = 1; rows.length < MAX_SUBJECTS; page++) {
    const res = unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/subjects", { params: { path: { agencyId: String(agencyId) }, query: { sort: "name", limit: "100", page: String(page) } } }));
    rows.push(...res.data.map((s) => newRow({ student_id: s.student_id, name: s.name, class_name: s.class_name ?? "" })));
    if (!res.links.next) break;
  }
  return rows.slice(0, MAX_SUBJECTS);
}
