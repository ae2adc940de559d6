"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { accountQueryKey, fetchAccount, type Account } from "./account-types";
import { PlanBadge } from "./plan-badge";

const PLAN_TEXT: Record<Account["plan"], string> = {
  free: "Free plan: QR cards in the 4-up layout and 100 preflight checks a month. Operations are paid for with tokens.",
  premium: "Premium plan: QR cards in single and 9-up layouts with custom logos, and 5,000 preflight checks a month. Operations are paid for with tokens.",
};

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

export function AccountDetailsCard() {
  const { data, error, isPending, refetch } = useQuery({ queryKey: accountQueryKey, queryFn: fetchAccount });

  return (
    <Card title="Account details">
      {isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading account…</span>
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="h-8 animate-pulse rounded bg-slate-100" />
          ))}
        </div>
      ) : error ? (
        <QueryError title="Could not load the account." error={error} onRetry={() => void refetch()} />
      ) : (
        <dl className="divide-y divide-slate-100">
          {/* The person signed in, not the studio's own login: a member sees their own name and address. */}
          <Row label="Your name">{data.member?.name ?? data.name}</Row>
          <Row label="Your email">
            {data.member?.email ?? data.email}{" "}
            {(data.member?.email_verified ?? data.email_verified) ? <span className="text-green-700">(confirmed)</span> : <span className="text-amber-700">(not confirmed yet)</span>}
          </Row>
          <Row label="Studio">
            {data.name} <span className="text-slate-500">(you are {data.role === "admin" || data.role === "owner" ? "an" : "a"} {data.role})</span>
          </Row>
          <Row label="Studio ID">
            <code className="font-mono text-xs text-slate-700">{data.id}</code>
          </Row>
          <Row label="Plan">
            <div className="space-y-1">
              <PlanBadge plan={data.plan} />
              <p className="text-slate-600">{PLAN_TEXT[data.plan] ?? ""}</p>
              <p className="text-slate-600">
                Plans are changed by the service operator.{" "}
                {/* The plans page is the owner's (it sells tokens): others would be refused there. */}
                {data.role === "owner" ? (
                  <Link href="/wallet/top-up" className="text-brand-600 hover:underline">
                    Compare plans and token costs
                  </Link>
                ) : null}
              </p>
            </div>
          </Row>
        </dl>
      )}
    </Card>
  );
}
