"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const sessionsKey = ["account", "sessions"] as const;
const COLUMNS: readonly Column[] = [{ label: "Device" }, { label: "Kind" }, { label: "Last seen" }, { label: "From" }, { label: "", align: "right" }];

/** Where this person is signed in (GET /v1/account/sessions): end one, or every other. */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data, error, isPending, refetch } = useQuery({ queryKey: sessionsKey, queryFn: async () => unwrap(await studioApi.GET("/v1/account/sessions")) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsKey });
  const end = useMutation({
    mutationFn: async (session: { id: string; current: boolean }) => {
      const res = await studioApi.DELETE("/v1/account/sessions/{id}", { params: { path: { id: session.id } } });
      if (!res.response.ok) unwrap(res);
      return session;
    },
    onSuccess: (session) => {
      if (session.current) router.push("/signin");
    },
    onSettled: refresh,
  });
  const endOthers = useMutation({ mutationFn: async () => unwrap(await studioApi.POST("/v1/account/sessions/end-others", { body: {} })), onSettled: refresh });

  return (
    <Card title="Where you are signed in">
      {isPending ? (
        <ListSkeleton label="Loading sessions…" />
      ) : error && !data ? (
        <QueryError title="Could not load your sessions." error={error} onRetry={() => void refetch()} />
      ) : (
        <div className="space-y-3">
          <DataTable caption="Your signed-in sessions, most recently used first" columns={COLUMNS}>
            {data.data.map((s) => (
              <tr key={s.id} data-testid="session-row">
                <td className="px-4 py-3 text-slate-900">
                  {s.device} {s.current ? <span className="text-xs text-emerald-700">(this one)</span> : null}
                </td>
                <td className="px-4 py-3 text-slate-600">{s.kind === "studio" ? "Studio (browser)" : "API access token"}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-600">{new Date(s.last_seen_at).toLocaleString()}</td>
                <td className="px-4 py-3 font-mono text-xs text-slate-500">{s.ip ?? "—"}</td>
                <td className="px-4 py-3 text-right">
                  <Button variant={s.current ? "secondary" : "danger"} disabled={end.isPending} onClick={() => end.mutate(s)}>
                    {s.current ? "Sign out" : "End"}
                  </Button>
                </td>
              </tr>
            ))}
          </DataTable>
          <div className="flex items-center gap-3">
            <Button variant="secondary" disabled={endOthers.isPending || data.data.filter((s) => !s.current).length === 0} onClick={() => endOthers.mutate()}>
              Sign out everywhere else
            </Button>
            {endOthers.isSuccess ? (
              <span role="status" className="text-sm text-emerald-700">
                {endOthers.data.ended === 1 ? "1 session ended." : `${endOthers.data.ended} sessions ended.`}
              </span>
            ) : null}
          </div>
          {end.error || endOthers.error ? (
            <p role="alert" className="text-sm text-red-600">
              {(end.error ?? endOthers.error)!.message}
            </p>
          ) : null}
          <p className="text-xs text-slate-500">Ending a session signs that browser or token out on its next request. API keys are the studio&apos;s and are managed under API keys.</p>
        </div>
      )}
    </Card>
  );
}
