"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { ROLE_OPTIONS, membersQueryKey, type Member, type Role } from "./types";

const COLUMNS: readonly Column[] = [{ label: "Person" }, { label: "Role" }, { label: "Joined" }, { label: "", align: "right" }];

/** The studio's members; admins change roles and remove people (owners only by owners), anyone can leave. */
export function MembersCard({ myRole }: { myRole: Role }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data, error, isPending, refetch } = useQuery({
    queryKey: membersQueryKey,
    queryFn: async () => unwrap(await studioApi.GET("/v1/members", { params: { query: { limit: "100" } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: membersQueryKey });
  const setRole = useMutation({
    mutationFn: async ({ id, role }: { id: string; role: Role }) => unwrap(await studioApi.PATCH("/v1/members/{id}", { params: { path: { id } }, body: { role } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (member: Member) => {
      const res = await studioApi.DELETE("/v1/members/{id}", { params: { path: { id: member.id } } });
      if (!res.response.ok) unwrap(res);
      return member;
    },
    onSuccess: (member) => {
      // Leaving ends this person's sessions: back to sign-in.
      if (member.you) router.push("/signin");
    },
    onSettled: refresh,
  });
  const canManage = (m: Member) => (myRole === "owner" || (myRole === "admin" && m.role !== "owner")) && !m.you;
  const failure = setRole.error ?? remove.error;

  return (
    <Card title="Members">
      {isPending ? (
        <ListSkeleton label="Loading members…" />
      ) : error && !data ? (
        <QueryError title="Could not load the members." error={error} onRetry={() => void refetch()} />
      ) : (
        <div className="space-y-3">
          {failure ? (
            <p role="alert" className="text-sm text-red-600">
              {failure.message}
            </p>
          ) : null}
          <DataTable caption="Members of the studio" columns={COLUMNS}>
            {data.data.map((m) => (
              <tr key={m.id} data-testid="member-row">
                <td className="px-4 py-3">
                  <div className="font-medium text-slate-900">
                    {m.name} {m.you ? <span className="text-xs text-slate-500">(you)</span> : null}{" "}
                    {m.two_factor_enabled ? (
                      <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800" title="Signs in with a second factor">
                        2FA
                      </span>
                    ) : null}
                  </div>
                  <div className="text-xs text-slate-500">{m.email}</div>
                </td>
                <td className="px-4 py-3">
                  {canManage(m) ? (
                    <select
                      aria-label={`Role of ${m.name}`}
                      className="rounded-md border border-slate-300 px-2 py-1 text-sm"
                      value={m.role}
                      disabled={setRole.isPending}
                      onChange={(e) => setRole.mutate({ id: m.id, role: e.target.value as Role })}
                    >
                      {ROLE_OPTIONS.filter((o) => o.value !== "owner" || myRole === "owner").map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span className="capitalize">{m.role}</span>
                  )}
                </td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-600">{new Date(m.joined_at).toLocaleDateString()}</td>
                <td className="px-4 py-3 text-right">
                  {canManage(m) ? (
                    <Button variant="danger" disabled={remove.isPending} onClick={() => window.confirm(`Remove ${m.name} from the studio? Their sessions end at once.`) && remove.mutate(m)}>
                      Remove
                    </Button>
                  ) : m.you ? (
                    <Button variant="secondary" disabled={remove.isPending} onClick={() => window.confirm("Leave this studio? You will be signed out.") && remove.mutate(m)}>
                      Leave
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
    </Card>
  );
}
