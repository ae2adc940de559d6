import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";

/** GET /v1/account, from the OpenAPI document. */
export type Account = ApiResponse<"/v1/account", "get">;

export const accountQueryKey = ["account"] as const;

/** The signed-in account (the cards of /account share it under accountQueryKey). */
export const fetchAccount = async () => unwrap(await studioApi.GET("/v1/account"));
