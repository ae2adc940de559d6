import { apiFetch } from "@/lib/client/api-fetch";
import type { Subject } from "@/components/studio/types";
import type { Paginated } from "@/lib/client/list-envelopes";
import { MAX_SUBJECTS, newRow, type RosterRowDraft } from "./roster-rows";

/** An agency's whole roster (up to the 2,000 a run takes), following the list's pages. */
export async function loadAgencyRoster(agencyId: number): Promise<RosterRowDraft[]> {
  const rows: RosterRowDraft[] = [];
  for (let page = 1; rows.length < MAX_SUBJECTS; page++) {
    const res = await apiFetch<Paginated<Subject>>(`/v1/services/studio/agencies/${agencyId}/subjects?sort=name&limit=100&page=${page}`);
    rows.push(...res.data.map((s) => newRow({ student_id: s.student_id, name: s.name, class_name: s.class_name ?? "" })));
    if (!res.links.next) break;
  }
  return rows.slice(0, MAX_SUBJECTS);
}
