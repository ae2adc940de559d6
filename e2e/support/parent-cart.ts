// The parent's way from a card's code to the cart, on their own phone (no studio
// session), as the money and production specs both start it.
import { expect, type Browser } from "@playwright/test";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/**
 * Opens Ann's gallery from the card's QR link (the page enters the code itself: typing it as
 * well raced that navigation), marks her first photo a favourite and goes to "Your order".
 */
export async function parentAtCart(browser: Browser, code: string) {
  const phone = await browser.newContext(PHONE);
  const parent = await phone.newPage();
  parent.on("pageerror", (e) => console.log("parent page error:", e.message));
  await parent.goto(`/g?code=${code}`);
  await expect(parent.getByRole("heading", { name: "Ann Archer's photos" })).toBeVisible({ timeout: 30_000 });
  await parent.getByTestId("photo-grid").getByRole("button", { name: "Add to favourites" }).first().tap();
  await expect(parent.getByRole("button", { name: "Remove from favourites" })).toHaveCount(1);
  await parent.getByRole("link", { name: "Order prints" }).click();
  await expect(parent.getByRole("heading", { name: "Your order" })).toBeVisible();
  return { phone, parent };
}
