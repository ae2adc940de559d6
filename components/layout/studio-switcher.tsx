"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { chooseStudio } from "@/lib/client/choose-studio";
import { stayOn } from "./stay-on";
import type { Role } from "@/lib/domain/identity/roles";


/**
 * Which studio the signed-in person acts for, and their role there. With more than
 * one studio (their own and those they were invited to), a select switches: the
 * choice is kept in a cookie and the studio reloads on the same page (or, from one
 * record's page, on its list; on the dashboard when the role there does not reach the page).
 */
export function StudioSwitcher({ current, role }: { current: { id: string; name: string }; role: Role }) {
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: ["studios"], queryFn: async () => unwrap(await studioApi.GET("/v1/studios")) });
  const studios = data?.data ?? [];
  if (studios.length < 2) {
    return (
      <span className="hidden max-w-40 truncate font-medium text-slate-800 md:block" title={`${current.name} (${role})`} data-testid="current-studio">
        {current.name}
      </span>
    );
  }
  return (
    <label className="flex min-w-0 max-w-full items-center gap-1">
      <span className="sr-only">Studio</span>
      <select
        aria-label="Studio"
        className="max-w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800 md:max-w-48"
        value={current.id}
        onChange={(e) => {
          const next = e.target.value;
          chooseStudio(next);
          // Everything cached belongs to the studio left behind.
          queryClient.clear();
          // The same page in the other studio; a page of one record (an agency, a match job) belongs to the studio left: its list instead.
          router.push(stayOn(pathname, studios.find((s) => s.id === next)?.role));
          router.refresh();
        }}
      >
        {studios.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} · {s.role}
          </option>
        ))}
      </select>
    </label>
  );
}

