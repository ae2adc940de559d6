"use client";

import { useQuery } from "@tanstack/react-query";
import { accountQueryKey, fetchAccount } from "./account-types";

/** The signed-in person's role in the studio they act for (GET /v1/account), undefined while loading. */
export function useStudioRole() {
  return useQuery({ queryKey: accountQueryKey, queryFn: fetchAccount }).data?.role;
}
