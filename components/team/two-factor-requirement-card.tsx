"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { membersQueryKey, type Role } from "./types";

const key = ["team", "two-factor-requirement"] as const;

/** Owners require two-factor of owners and admins; admins see who is still without it. */
export function TwoFactorRequirementCard({ myRole }: { myRole: Role }) {
  const queryClient = useQueryClient();
  const { data, error, refetch } = useQuery({ queryKey: key, queryFn: async () => unwrap(await studioApi.GET("/v1/account/two-factor-requirement")) });
  const change = useMutation({
    mutationFn: async (required: boolean) => unwrap(await studioApi.PUT("/v1/account/two-factor-requirement", { body: { required } })),
    onSuccess: (next) => queryClient.setQueryData(key, next),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersQueryKey }),
  });
  if (error && !data) return <QueryError title="Could not load the two-factor setting." error={error} onRetry={() => void refetch()} />;
  if (!data) return null;
  const missing = data.members_without_two_factor;
  return (
    <Card title="Two-factor sign-in">
      <div className="space-y-3 text-sm text-slate-700">
        <p>
          {data.required
            ? "Required: owners and admins must sign in with a code from an authenticator app. Those without it cannot act for the studio until they turn it on."
            : "Not required. Owners and admins can be made to sign in with a second factor, which keeps a leaked password from opening the studio's wallet, keys and children's data."}
        </p>
        {missing.length > 0 ? (
          <p data-testid="without-two-factor">
            Without two-factor: {missing.map((m) => `${m.name} (${m.role})`).join(", ")}.
          </p>
        ) : null}
        {change.error ? (
          <p role="alert" className="text-red-600">
            {change.error.message}
          </p>
        ) : null}
        {myRole === "owner" ? (
          <Button variant={data.required ? "secondary" : "primary"} disabled={change.isPending} onClick={() => change.mutate(!data.required)}>
            {data.required ? "Stop requiring two-factor" : "Require two-factor for owners and admins"}
          </Button>
        ) : null}
      </div>
    </Card>
  );
}
