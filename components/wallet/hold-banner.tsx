"use client";

import { useQuery } from "@tanstack/react-query";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { accountQueryKey } from "@/components/account/account-types";

/**
 * Shown while the account is on hold (a refunded or disputed card payment whose tokens
 * were already spent): says why, and that paid operations are paused until it is settled.
 */
export function HoldBanner() {
  const { data } = useQuery({ queryKey: accountQueryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/account")) });
  if (!data?.hold) return null;
  return (
    <div role="alert" data-testid="account-hold" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      <p className="font-medium">Paid operations are paused on this account.</p>
      <p className="mt-1">{data.hold.reason} Free tools keep working; contact the operator of this service to settle the tokens and lift the hold.</p>
    </div>
  );
}
