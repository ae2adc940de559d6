import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { missingBleedPdf } from "../test/fixtures/preflight/pdf-fixtures";
import { E2E_PASSWORD, emailedLink, grantTokens, sameOrigin, signUp } from "./support/accounts";
import { checkFile } from "./support/preflight";
import { ok } from "./support/expect-status";

// The studio on a 390 px phone (issue 33, item 8) for a member of two studios: the
// Menu button stays on screen beside the studio switcher, and the pages with
// tables and cards (roster, Bulk QR, match jobs, face review, AI fixes, wallet,
// audit log, team) fit the width: the document does not scroll sideways and no
// table scrolls inside it. Face review keeps its decision buttons beside the face.
const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 }, hasTouch: true, isMobile: true });

const photo = (name: string) => ({ name, mimeType: "image/jpeg", buffer: fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces", name)) });

/** What does not fit: the document's width, and any element of the page that scrolls sideways. */
async function expectFits(page: Page, what: string) {
  await page.waitForLoadState("networkidle");
  const found = await page.evaluate(() => {
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${String(el.className).split(" ").slice(0, 4).join(".")}`;
    const width = document.documentElement.clientWidth;
    const sticking = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && el.getClientRects().length > 0)
      .slice(0, 6)
      .map((el) => `${describe(el)} (${Math.round(el.getBoundingClientRect().right)} px)`);
    const scrollers = [...document.querySelectorAll("body *")]
      .filter((el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${describe(el)} (${el.scrollWidth} in ${el.clientWidth} px)`);
    return { scrollWidth: document.documentElement.scrollWidth, width, sticking, scrollers };
  });
  expect(found.width, what).toBe(WIDTH);
  expect(found.scrollWidth, `${what}: the document is wider than the phone; past the edge: ${found.sticking.join(", ")}`).toBeLessThanOrEqual(WIDTH);
  expect(found.scrollers, `${what}: scrolls sideways`).toEqual([]);
  await page.screenshot({ path: test.info().outputPath(`${what}-${WIDTH}.png`), fullPage: true });
}

async function expectMenuOnScreen(page: Page) {
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, "the Menu button's right edge").toBeLessThanOrEqual(WIDTH);
}

/** A roster with references, and a finished match job whose faces wait for review, through the API. */
async function matchedJob(request: APIRequestContext, email: string) {
  const { access_token } = await ok<{ access_token: string }>(request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } }), 200);
  const headers = { Authorization: `Bearer ${access_token}` };
  const post = (url: string, body: { data?: unknown; multipart?: Record<string, ReturnType<typeof photo>> }) => request.post(url, { headers, ...body } as never);
  const agency = await ok<{ id: number }>(post("/v1/services/studio/agencies", { data: { name: "Hillside Middle School of the Long Valley", agency_type: "school" } }), 201);
  await ok(request.patch(`/v1/services/studio/agencies/${agency.id}`, { headers, data: { face_matching_enabled: true, consent_confirmed: true } }), 200);
  for (const [studentId, name, file] of [["S-1", "Barack Obama", "obama.jpg"], ["S-2", "Joe Biden", "biden.jpg"], ["S-3", "Barry Obama", "obama.jpg"]] as const) {
    const up = await ok<{ url: string }>(post("/v1/uploads", { multipart: { file: photo(file) } }), 201);
    await ok(post(`/v1/services/studio/agencies/${agency.id}/subjects`, { data: { student_id: studentId, name, reference_photo_url: up.url, grade: "7", teacher: "Mrs. Bartholomew-Richardson" } }), 201);
  }
  const csv = "Student ID,First Name,Last Name,Grade,Teacher\n2024-000123,Maximiliana Alexandrina,Van der Berg-Oppenheimer,K,Mr. Christopher Montgomery-Smythe\n";
  await ok(request.post(`/v1/services/studio/agencies/${agency.id}/subjects/import`, { headers: { ...headers, "Content-Type": "text/csv" }, data: csv }), 200);
  await ok(post("/v1/services/studio/matching/references", { data: { agency_id: agency.id } }), 200);
  const job = await ok<{ id: number }>(post(`/v1/services/studio/agencies/${agency.id}/jobs`, { data: { name: "Class photos", icp_type: "school" } }), 201);
  for (const file of ["obama2.jpg", "biden2.jpg"]) {
    await ok(post(`/v1/services/studio/agencies/${agency.id}/jobs/${job.id}/files`, { multipart: { file: photo(file) } }), 201);
  }
  const match = await ok<{ match_job_id: number }>(post("/v1/services/studio/matching/match-job", { data: { agency_id: agency.id, job_id: job.id } }), 200);
  return { agencyId: agency.id, matchJobId: match.match_job_id };
}

test("a member of two studios on a 390 px phone: the Menu button is on screen and every list fits the width", async ({ page, browser }) => {
  test.setTimeout(400_000);
  // Another studio, with a long name, invites this person: they now belong to two studios.
  const other = await (await browser.newContext()).newPage();
  // The sign-up bonus is stated before it arrives (playwright.config.ts sets SIGNUP_BONUS_TOKENS=100).
  await other.goto("/signup");
  await expect(other.getByTestId("signup-bonus")).toHaveText("100 free tokens arrive when you confirm your email address.");
  await signUp(other, "Northlight Portrait and Yearbook Company");
  const email = await signUp(page, "Phone Walker Photography");
  await ok(other.request.post("/v1/invitations", { headers: sameOrigin(other), data: { email, role: "photographer" } }), 201);
  const link = new URL(await emailedLink(page.request, email, /Join Northlight/));
  // A link cut short says so in words (not the token's format check), before any button.
  await page.goto("/invite?token=abc");
  await expect(page.getByRole("button", { name: "Accept the invitation" })).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: "This invitation link is not valid: it may have been cut short." })).toBeVisible();
  await ok(page.request.post("/v1/invitations/accept", { headers: sameOrigin(page), data: { token: link.searchParams.get("token") } }), 200);
  await grantTokens(page.request, email, 900);

  await page.goto("/dashboard");
  // Two studios: the switcher is there (in the header, hidden on a phone until the menu opens).
  await expect(page.locator('select[aria-label="Studio"]')).toHaveCount(1);
  await expectMenuOnScreen(page);
  await expectFits(page, "dashboard");
  // The switcher is in the menu on a phone, and the menu fits too.
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Studio" })).toBeVisible();
  await expectFits(page, "menu");

  // Team: members and a pending invitation; the audit log.
  await ok(page.request.post("/v1/invitations", { headers: sameOrigin(page), data: { email: `a-very-long-address-for-a-phone-${Date.now()}@example-photography-studio.com`, role: "viewer" } }), 201);
  await page.goto("/team");
  await expect(page.getByTestId("invitation-row")).toHaveCount(1);
  await expectFits(page, "team");
  await page.goto("/audit-log");
  await expect(page.getByRole("table").first()).toBeVisible();
  await expectFits(page, "audit-log");

  // Roster, match jobs and face review.
  const { agencyId, matchJobId } = await matchedJob(page.request, email);
  await page.goto(`/agencies/${agencyId}/roster`);
  await expect(page.getByTestId("roster-table").getByText("Van der Berg-Oppenheimer, Maximiliana Alexandrina")).toBeVisible();
  await expectFits(page, "roster");
  await page.goto(`/matching/${matchJobId}`);
  await expect(page.getByText(/completed/).first()).toBeVisible({ timeout: 120_000 });
  await expectFits(page, "face-review");
  // The decision buttons sit right under the face (its close-up), not a screen or more below the photo.
  const face = (await page.getByRole("img", { name: "The face, enlarged" }).boundingBox())!;
  const accept = (await page.getByRole("button", { name: /^Accept/ }).boundingBox())!;
  expect(accept.y - (face.y + face.height), "from the face to its buttons").toBeLessThan(250);
  await page.goto("/matching");
  await expect(page.getByRole("table", { name: "Match jobs" })).toBeVisible();
  await expectFits(page, "match-jobs");

  // Bulk QR: the roster editor and a run's cards.
  await page.goto("/qr");
  await page.getByLabel("Paste a roster CSV").fill("student_id,name,class_name\nS1,Maximiliana Alexandrina Van der Berg-Oppenheimer,Kindergarten Blue\nS2,Alan Turing,5A");
  await page.getByRole("button", { name: "Use this CSV" }).click();
  await expect(page.getByTestId("qr-roster")).toBeVisible();
  await expectFits(page, "bulk-qr-roster");
  await page.getByLabel("Job reference (printed in every QR)").fill("PHONE-2026");
  await page.getByRole("button", { name: "Generate PDF (2 tokens)" }).click();
  await expect(page.getByTestId("qr-download")).toBeVisible({ timeout: 60_000 });
  await expectFits(page, "bulk-qr-cards");

  // AI fixes: a PDF bleed fix waiting for review.
  await page.goto("/preflight");
  await checkFile(page, "flyer.pdf", "application/pdf", await missingBleedPdf(), { w: "8", h: "10", bleed: "3" });
  const panel = page.getByTestId("fix-panel");
  await panel.getByLabel(/review before\/after/).check();
  await panel.getByRole("button", { name: "Fix for 150 tokens" }).click();
  await expect(page.getByTestId("fix-status")).toHaveText("Ready for your review", { timeout: 90_000 });
  await expectFits(page, "preflight-fix");
  await page.goto("/ai-fixes");
  await expect(page.getByTestId("ai-fix-history-item").first()).toBeVisible();
  await expectFits(page, "ai-fixes");

  // Wallet: the ledger on the dashboard, and the prices and top-up.
  await page.goto("/dashboard");
  await expect(page.getByRole("table", { name: /Wallet transactions/ })).toBeVisible();
  await expectFits(page, "wallet");
  await page.goto("/wallet/top-up");
  await expectFits(page, "top-up");
  await expectMenuOnScreen(page);
});
