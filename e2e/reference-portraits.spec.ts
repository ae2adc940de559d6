import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PASSWORD, signUp } from "./support/accounts";

// Several reference portraits per subject on the roster page: one added with the file
// picker, one dropped on the row, shown as thumbnails, one removed. The project's own
// photos (test/fixtures/faces, MIT); face matching on, so each is embedded at upload.
const fixture = (name: string) => fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces", name));

test("roster: add two reference portraits (file picker, then drag and drop), see their thumbnails, remove one", async ({ page }) => {
  test.setTimeout(120_000);
  const email = await signUp(page, "Portrait Studio");
  const { access_token } = await (await page.request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } })).json();
  const headers = { Authorization: `Bearer ${access_token}` };
  const agency = await (await page.request.post("/v1/services/studio/agencies", { headers, data: { name: "Hillside Primary", agency_type: "school" } })).json();
  expect((await page.request.patch(`/v1/services/studio/agencies/${agency.id}`, { headers, data: { face_matching_enabled: true, consent_confirmed: true } })).status()).toBe(200);
  expect((await page.request.post(`/v1/services/studio/agencies/${agency.id}/subjects`, { headers, data: { student_id: "S-1", name: "Barack Obama" } })).status()).toBe(201);

  await page.goto(`/agencies/${agency.id}/roster`);
  const cell = page.getByTestId("reference-photos-S-1");
  await expect(cell.getByText("No portrait yet")).toBeVisible();

  // The file picker.
  await cell.getByLabel("Add reference portraits of Barack Obama").setInputFiles({ name: "obama.jpg", mimeType: "image/jpeg", buffer: fixture("obama.jpg") });
  await expect(cell.getByRole("img", { name: "Reference portrait obama.jpg of Barack Obama" })).toBeVisible({ timeout: 30_000 });

  // Drag and drop onto the row's tile.
  const dropped = await page.evaluateHandle(
    ({ b64, name }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: "image/jpeg" }));
      return dt;
    },
    { b64: fixture("obama2.jpg").toString("base64"), name: "obama2.jpg" },
  );
  // The same element for both events: while a drag is over it, its text says "Drop portraits".
  const tile = (await cell.getByText(/\+ Portrait \(4 more\)/).elementHandle())!;
  await tile.dispatchEvent("dragenter", { dataTransfer: dropped });
  await expect(cell.getByText("Drop portraits")).toBeVisible();
  await tile.dispatchEvent("drop", { dataTransfer: dropped });
  await expect(cell.getByRole("img", { name: "Reference portrait obama2.jpg of Barack Obama" })).toBeVisible({ timeout: 30_000 });
  await expect(cell.getByText("+ Portrait (3 more)")).toBeVisible();
  await expect.poll(() => cell.getByRole("img", { name: /Reference portrait obama\.jpg/ }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/roster-portraits.png", fullPage: true });

  // Both are references the matching uses.
  const refs = await (await page.request.get(`/v1/services/studio/agencies/${agency.id}/subjects/${(await (await page.request.get(`/v1/services/studio/agencies/${agency.id}/subjects`, { headers })).json()).data[0].id}/references`, { headers })).json();
  expect(refs.references.map((r: { source: string }) => r.source)).toEqual(["portrait", "portrait"]);

  await cell.getByRole("button", { name: "Remove portrait obama.jpg" }).click();
  await expect(cell.getByRole("img", { name: "Reference portrait obama.jpg of Barack Obama" })).toHaveCount(0);
  await expect(cell.getByRole("img", { name: "Reference portrait obama2.jpg of Barack Obama" })).toBeVisible();
  await expect(cell.getByText("+ Portrait (4 more)")).toBeVisible();
});
