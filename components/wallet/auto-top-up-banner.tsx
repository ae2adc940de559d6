"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { accountQueryKey } from "@/components/account/account-types";
import { autoTopUpQueryKey } from "./auto-top-up-card";

/** On the wallet, for owners: auto top-up turned itself off (a declined card), and why. */
export function AutoTopUpBanner() {
  const account = useQuery({ queryKey: accountQueryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/account")) });
  const owner = account.data?.role === "owner";
  const { data } = useQuery({ queryKey: autoTopUpQueryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/billing/auto-top-up")), enabled: owner });
  if (!owner || !data?.last_failure || data.enabled) return null;
  return (
    <div role="alert" data-testid="auto-top-up-banner" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="font-medium">Auto top-up is off.</p>
      <p className="mt-1">
        {data.last_failure.message}{" "}
        <Link href="/wallet/top-up" className="underline">
          Check the card and turn it on again
        </Link>
        .
      </p>
    </div>
  );
}
