// The generated typed client (lib/client/api-client) against the running server, the way a
// third party would use it: register, token, a billed call retried with one key.
import { expect, test } from "@playwright/test";
import { createApiClient } from "../lib/client/api-client";
import { emailedLink } from "./support/accounts";

test("the typed client registers, confirms the address, authenticates, and a retried billed POST with one Idempotency-Key is charged once", async ({ baseURL, request }) => {
  const anonymous = createApiClient({ baseUrl: baseURL });
  const email = `typed-client-${Date.now()}@example.com`;
  const registered = await anonymous.POST("/v1/auth/register", { body: { email, password: "a long enough passphrase", name: "Typed Client" } });
  expect(registered.response.status).toBe(201);
  expect(registered.data?.account.email).toBe(email);
  // The sign-up tokens come with the confirmation: follow the emailed link's token.
  const link = new URL(await emailedLink(request, email, /Confirm your email address/));
  const confirmed = await anonymous.POST("/v1/auth/email-verification/confirm", { body: { token: link.searchParams.get("token")! } });
  expect(confirmed.data?.account.email_verified).toBe(true);
  const token = await anonymous.POST("/v1/auth/token", { body: { email, password: "a long enough passphrase" } });
  expect(token.data?.token_type).toBe("Bearer");

  const api = createApiClient({ baseUrl: baseURL, token: token.data!.access_token });
  const before = (await api.GET("/v1/wallet")).data!.balance;
  const body = { job_id: "TYPED-1", subjects: [{ student_id: "S1", name: "Ada Lovelace", class_name: "5A" }, { student_id: "S2", name: "Alan Turing", class_name: "5A" }] };
  const headers = { "Idempotency-Key": `typed-${Date.now()}` };
  const first = await api.POST("/v1/services/studio/qr/generate", { body, headers });
  const retry = await api.POST("/v1/services/studio/qr/generate", { body, headers });
  expect(first.response.status).toBe(200);
  expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
  expect(retry.data?.id).toBe(first.data?.id);
  expect((await api.GET("/v1/wallet")).data!.balance).toBe(before - 2);

  // Errors come back typed as the error envelope.
  const missing = await api.GET("/v1/services/bg-remove/{jobId}", { params: { path: { jobId: "job_nope" } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error?.error).toBe("NOT_FOUND");
});
