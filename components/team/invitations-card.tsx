"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { fieldErrors } from "@/lib/client/field-errors";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";
import { ROLE_OPTIONS, invitationsQueryKey, type Role } from "./types";

const COLUMNS: readonly Column[] = [{ label: "Email" }, { label: "Role" }, { label: "Status" }, { label: "Expires" }, { label: "", align: "right" }];

const fieldError = (err: unknown, field: string): string | undefined => fieldErrors(err)[field];

/** Invite by email (a link valid 7 days), and the invitations sent: resend or withdraw the pending ones. */
export function InvitationsCard({ myRole }: { myRole: Role }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("photographer");
  const action = useActionKey();
  const { data, error, isPending, refetch } = useQuery({
    queryKey: invitationsQueryKey,
    queryFn: async () => unwrap(await studioApi.GET("/v1/invitations", { params: { query: { limit: "50" } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey });
  const invite = useMutation({
    mutationFn: (body: { email: string; role: Role }) => action.run(async (key) => unwrap(await studioApi.POST("/v1/invitations", { body, headers: { "idempotency-key": key } }))),
    onSuccess: () => setEmail(""),
    onSettled: refresh,
  });
  const resend = useMutation({
    mutationFn: async (id: string) => unwrap(await studioApi.POST("/v1/invitations/{id}/resend", { params: { path: { id } }, body: {} })),
    onSettled: refresh,
  });
  const revoke = useMutation({
    mutationFn: async (id: string) => unwrap(await studioApi.DELETE("/v1/invitations/{id}", { params: { path: { id } } })),
    onSettled: refresh,
  });
  const emailError = fieldError(invite.error, "email");
  const otherError = (invite.error && !emailError ? invite.error : null) ?? resend.error ?? revoke.error;

  return (
    <Card title="Invite someone">
      <form
        noValidate
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate({ email, role });
        }}
      >
        <div className="grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-start">
          <Field id="invite-email" label="Email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} required />
          <SelectField
            id="invite-role"
            label="Role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            options={ROLE_OPTIONS.filter((o) => o.value !== "owner" || myRole === "owner").map((o) => ({ value: o.value, label: o.label }))}
          />
          <Button type="submit" disabled={invite.isPending} className="sm:mt-6">
            {invite.isPending ? "Sending…" : "Send invitation"}
          </Button>
        </div>
        <p className="text-xs text-slate-500">{ROLE_OPTIONS.find((o) => o.value === role)?.means}.</p>
        {invite.isSuccess ? (
          <p role="status" className="text-sm text-emerald-700">
            Invitation sent to {invite.data.email}.
          </p>
        ) : null}
        {otherError ? (
          <p role="alert" className="text-sm text-red-600">
            {otherError.message}
          </p>
        ) : null}
      </form>
      <div className="mt-6">
        {isPending ? (
          <ListSkeleton label="Loading invitations…" />
        ) : error && !data ? (
          <QueryError title="Could not load the invitations." error={error} onRetry={() => void refetch()} />
        ) : data.data.length === 0 ? (
          <EmptyState>No invitations yet.</EmptyState>
        ) : (
          <DataTable caption="Invitations, newest first" columns={COLUMNS}>
            {data.data.map((inv) => (
              <tr key={inv.id} data-testid="invitation-row">
                <td className="px-4 py-3 text-slate-900">{inv.email}</td>
                <td className="px-4 py-3 capitalize">{inv.role}</td>
                <td className="px-4 py-3 capitalize">{inv.status}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-600">{new Date(inv.expires_at).toLocaleDateString()}</td>
                <td className="space-x-2 whitespace-nowrap px-4 py-3 text-right">
                  {inv.status === "pending" || inv.status === "expired" ? (
                    <Button variant="secondary" disabled={resend.isPending} onClick={() => resend.mutate(inv.id)}>
                      Resend
                    </Button>
                  ) : null}
                  {inv.status === "pending" ? (
                    <Button variant="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(inv.id)}>
                      Withdraw
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </div>
    </Card>
  );
}
