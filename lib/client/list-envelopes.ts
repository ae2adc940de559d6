/**
 * The two list envelopes of /v1 as the studio pages read them (contract 2.10):
 * page-numbered lists (wallet, keys, studio data) and keyset lists (core API),
 * which carry cursors in their links and no page numbers.
 */
export type Paginated<T> = {
  data: T[];
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; current_page: number; last_page: number; total: number };
  message: string;
};

export type CursorList<T> = {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; sort_by: string; order: "asc" | "desc" };
  message: string;
};
