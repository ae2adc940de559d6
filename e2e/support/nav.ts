import { expect, type Page } from "@playwright/test";
import { groupOf } from "../../components/layout/nav-items";

/**
 * Goes to a studio page through the navigation, as a person would: on a wide
 * screen by opening the page's group (Services, Studio data, …), on a phone
 * through the Menu button. The groups come from the nav's own data.
 */
export async function navigateTo(page: Page, label: string) {
  const group = groupOf(label);
  if (!group) throw new Error(`"${label}" is not in the studio navigation`);
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  if (await menu.isVisible()) {
    if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  } else {
    const button = page.getByRole("navigation", { name: "Studio" }).getByRole("button", { name: new RegExp(`^${group}\\b`) });
    if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  }
  const link = page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: label, exact: true });
  await expect(link).toBeVisible();
  await link.click();
}
