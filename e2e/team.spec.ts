// A studio's team in two browsers: the owner invites a photographer by email (read
// from the harness's SMTP server); the photographer accepts in another browser,
// runs a background removal on the studio's wallet, and finds billing and API keys
// closed to them; the owner sees the debit under the photographer's name.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PASSWORD, emailTo, emailedLink, grantTokens, sameOrigin, signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

test("the owner invites a photographer, who works on the studio's wallet but cannot reach billing or API keys", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const ownerEmail = await signUp(page, "Northlight Team");
  await grantTokens(page.request, ownerEmail, 400);

  await navigateTo(page, "Team");
  await expect(page.getByRole("heading", { name: /Team of Northlight Team/ })).toBeVisible();
  const samEmail = `sam-${Date.now()}@example.com`;
  await page.getByLabel("Email").fill(samEmail);
  await page.getByLabel("Role").selectOption("photographer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status")).toContainText(`Invitation sent to ${samEmail}`);
  await expect(page.getByTestId("invitation-row").filter({ hasText: samEmail })).toContainText("pending");

  // Sam, in another browser, follows the emailed link and creates a login.
  const link = new URL(await emailedLink(page.request, samEmail, /Join Northlight Team/));
  const samContext = await browser.newContext();
  const sam = await samContext.newPage();
  await sam.goto(link.pathname + link.search);
  // Before accepting, the page names the studio, the role and who invited.
  await expect(sam.getByRole("heading", { name: /Join Northlight Team/ })).toBeVisible();
  await expect(sam.getByTestId("invitation-summary")).toContainText(`Northlight Team invited ${samEmail} to join Northlight Team's studio as a photographer.`);
  await sam.getByRole("button", { name: "Accept the invitation" }).click();
  await sam.getByLabel("Your name").fill("Sam Rivera");
  await sam.getByLabel(/Choose a password/).fill(E2E_PASSWORD);
  await sam.getByRole("button", { name: "Create my login and join" }).click();
  await expect(sam).toHaveURL(/\/dashboard/);
  // A login made by the invitation belongs to this studio only: no empty studio of its own to switch to.
  await expect(sam.getByTestId("current-studio")).toHaveText("Northlight Team");
  await expect(sam.getByRole("combobox", { name: "Studio" })).toHaveCount(0);
  // Not offered what the owner alone may do: buying tokens.
  await expect(sam.getByText("Ask the studio's owner to buy tokens.").first()).toBeVisible();
  await expect(sam.getByRole("link", { name: "Buy tokens" })).toHaveCount(0);
  // Sam's account page is about Sam, not the owner.
  await sam.goto("/account");
  await expect(sam.getByText("Sam Rivera").first()).toBeVisible();
  await expect(sam.getByText(samEmail).first()).toBeVisible();
  await expect(sam.getByText(ownerEmail)).toHaveCount(0);
  // The storefront token is shown, but rotating it is for admins and the owner.
  await sam.goto("/settings");
  await expect(sam.getByTestId("unauth-token")).toBeVisible();
  await expect(sam.getByText("Only the studio's admins and owner can rotate it.")).toBeVisible();
  await expect(sam.getByRole("button", { name: "Rotate token" })).toHaveCount(0);
  await sam.goto("/dashboard");

  // A background removal, paid from the studio's 500 tokens.
  await navigateTo(sam, "Background removal");
  const file = path.resolve(process.cwd(), "lib/engines/ml/background-removal/fixtures", "coffee.png");
  await sam.getByTestId("bg-remove-input").setInputFiles([{ name: "coffee.png", mimeType: "image/png", buffer: fs.readFileSync(file) }]);
  await expect(sam.getByTestId("bg-remove-cost")).toContainText("Balance: 500 tokens");
  await sam.getByRole("button", { name: /Remove background/ }).click();
  await expect(sam.getByRole("article", { name: "Background removal of coffee.png" })).toHaveAttribute("data-status", "completed", { timeout: 240_000 });

  // Billing and API keys are the owner's and admins': not in Sam's menu, and closed when opened directly.
  await sam.getByRole("button", { name: /Developers/ }).click();
  await expect(sam.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await sam.goto("/api-keys");
  await expect(sam.getByRole("status")).toContainText("This page is for the studio's owners and admins");
  await sam.goto("/wallet/top-up");
  await expect(sam.getByRole("status")).toContainText("This page is for the studio's owners");
  const keys = await sam.request.get("/v1/api-keys");
  expect(keys.status()).toBe(403);
  expect((await keys.json()).error).toBe("FORBIDDEN_ROLE");

  // The owner's wallet names who spent the tokens, and can show only Sam's debits.
  await page.goto("/dashboard");
  const debit = page.getByRole("row").filter({ hasText: "Sam Rivera" });
  await expect(debit.first()).toBeVisible();
  await expect(debit.first().getByTestId("ledger-spent-by")).toHaveText("Sam Rivera");
  await page.getByLabel("Spent by").selectOption({ label: "Sam Rivera" });
  await expect(page.getByTestId("ledger-spent-by")).toHaveText(["Sam Rivera"]);

  // The audit log tells the story.
  await navigateTo(page, "Audit log");
  await expect(page.getByTestId("audit-row").filter({ hasText: "Invitation accepted" })).toContainText("Sam Rivera");
  await expect(page.getByTestId("audit-row").filter({ hasText: "Invitation created" })).toContainText(samEmail);
  await page.screenshot({ path: test.info().outputPath("audit-log.png"), fullPage: true });
  await samContext.close();
});

// Issue 33 (16): a signed-in person in no studio went round /signin and /dashboard. Now a page says so,
// and offers a studio of their own or signing out.
test("a person removed from their only studio is told so after signing in, and can start a studio of their own", async ({ page, browser }) => {
  await signUp(page, "Lakeside Team");
  const patEmail = `pat-${Date.now()}@example.com`;
  const invited = await page.request.post("/v1/invitations", { headers: sameOrigin(page), data: { email: patEmail, role: "viewer" } });
  expect(invited.status(), await invited.text()).toBe(201);
  const link = new URL(await emailedLink(page.request, patEmail, /Join Lakeside Team/));
  const patContext = await browser.newContext();
  const pat = await patContext.newPage();
  await pat.goto(link.pathname + link.search);
  await pat.getByRole("button", { name: "Accept the invitation" }).click();
  await pat.getByLabel("Your name").fill("Pat Lee");
  await pat.getByLabel(/Choose a password/).fill(E2E_PASSWORD);
  await pat.getByRole("button", { name: "Create my login and join" }).click();
  await expect(pat).toHaveURL(/\/dashboard/);

  // The owner removes Pat, whose sessions end; Pat signs in again.
  const members = (await (await page.request.get("/v1/members")).json()).data as { id: string; email: string }[];
  const removed = await page.request.delete(`/v1/members/${members.find((m) => m.email === patEmail)!.id}`, { headers: sameOrigin(page) });
  expect(removed.status()).toBe(204);
  // The e-mail says what happened: removed, not "You left" (issue 33, 15).
  // Read where it arrives: the harness's SMTP server (the outbox lists only mail the app keeps to itself).
  expect((await emailTo(page.request, patEmail, /removed from/)).subject).toBe("You were removed from Lakeside Team · Print Studio");
  await pat.goto("/dashboard");
  await expect(pat).toHaveURL(/\/signin/);
  await pat.getByLabel("Email").fill(patEmail);
  await pat.getByLabel("Password").fill(E2E_PASSWORD);
  await pat.getByRole("button", { name: "Sign in" }).click();
  await expect(pat).toHaveURL(/\/no-studio$/);
  await expect(pat.getByRole("heading", { name: "You are not in any studio" })).toBeVisible();
  await expect(pat.getByTestId("no-studio")).toContainText(patEmail);
  // The studio's pages send Pat here too, not round a redirect.
  await pat.goto("/team");
  await expect(pat).toHaveURL(/\/no-studio$/);
  await pat.getByRole("button", { name: "Create a studio of my own" }).click();
  await expect(pat).toHaveURL(/\/dashboard$/);
  await expect(pat.getByTestId("current-studio")).toBeAttached();
  await pat.goto("/no-studio");
  await expect(pat).toHaveURL(/\/dashboard$/);
  await patContext.close();
});
