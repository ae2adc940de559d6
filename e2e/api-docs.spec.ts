// The API reference page (/docs): Scalar's bundle from node_modules renders
// GET /v1/openapi.json, try-it-out calls this server, and nothing is fetched
// from another origin.
import { expect, test } from "@playwright/test";

test("the API reference renders the generated document, tries a request against this server, and calls no other origin", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  await page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== origin && (url.protocol === "http:" || url.protocol === "https:")) {
      foreign.push(url.href);
      return route.abort();
    }
    return route.continue();
  });
  const spec = await (await page.request.get("/v1/openapi.json")).json();
  expect(spec.openapi).toBe("3.1.0");
  // The origin the server sees the request on (APP_URL when set); the page points try-it-out at its own origin.
  expect(new URL(spec.servers[0].url).port).toBe(new URL(baseURL!).port);

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/docs");
  // A 4 MB bundle on a busy machine: give it time to render.
  await expect(page.getByRole("heading", { name: "Print Studio API", exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("The studio the caller acts for").first()).toBeVisible();
  await expect(page.getByText(origin).first()).toBeVisible();
  // A way back to the studio, and no source path of ours in the description.
  await expect(page.getByRole("link", { name: "← Back to the studio" })).toHaveAttribute("href", "/dashboard");
  await expect(page.getByText("lib/http/openapi")).toHaveCount(0);
  await page.screenshot({ path: "test-results/api-docs.png" });

  // Try it out: GET /v1/account from the page goes to this server (401 without credentials: it answered).
  await page.getByText("The studio the caller acts for").first().click();
  const sent = page.waitForRequest((r) => r.url() === `${origin}/v1/account`, { timeout: 30_000 });
  await page.getByRole("button", { name: /Test Request/ }).first().click();
  const send = page.getByRole("button", { name: /^Send/ }).first();
  await expect(send).toBeVisible({ timeout: 15_000 });
  await send.click();
  const request = await sent;
  expect((await request.response())?.status()).toBe(401);
  await page.screenshot({ path: "test-results/api-docs-try-it.png" });
  expect(foreign).toEqual([]);
});
