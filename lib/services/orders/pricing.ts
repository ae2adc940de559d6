import type { SheetItem, SheetPackage, ShippingOption } from "@/lib/foundation/db/schema";
import { invalidField } from "./price-sheets";
import type { CartLine } from "./schemas";

type Sheet = { items: SheetItem[]; packages: SheetPackage[]; shipping: ShippingOption[]; taxRateBps: number };
type Promo = { kind: string; value: number } | null;

export type PricedLine = CartLine & { kind: "item" | "package"; refId: string; name: string; unitPrice: number; unitLabCost: number; lineTotal: number; digital: boolean };
export type Priced = { lines: PricedLine[]; subtotal: number; discount: number; tax: number; shipping: number; total: number; labCost: number; option: ShippingOption };

/** Half away from zero, on integers of minor units. */
const round = (n: number) => Math.round(n);

/**
 * The order's prices from the sheet alone: each line's unit price and lab cost are
 * the sheet's (a package's lab cost is its items'), the promo takes a percentage or
 * an amount off the goods (never below zero), tax is the sheet's rate of the goods
 * after the discount, and shipping is the option's price (a school batch is free).
 */
export function priceCart(sheet: Sheet, lines: CartLine[], shippingOptionId: string, promo: Promo, platformFeePercent = 0, backgroundIds: ReadonlySet<string> = new Set()): Priced & { fee: number } {
  const items = new Map(sheet.items.map((i) => [i.id, i]));
  const packages = new Map(sheet.packages.map((p) => [p.id, p]));
  const priced = lines.map((line, n): PricedLine => {
    if (line.background_id !== undefined) checkBackground(line, n, items, packages, backgroundIds);
    if (line.item_id !== undefined) {
      const item = items.get(line.item_id);
      if (!item) throw invalidField(`lines.${n}.item_id`, `No item ${line.item_id} on this gallery's price sheet.`);
      return { ...line, kind: "item", refId: item.id, name: item.name, unitPrice: item.price, unitLabCost: item.lab_cost, lineTotal: item.price * line.quantity, digital: item.kind === "digital" };
    }
    const pkg = packages.get(line.package_id!);
    if (!pkg) throw invalidField(`lines.${n}.package_id`, `No package ${line.package_id} on this gallery's price sheet.`);
    const labCost = pkg.items.reduce((sum, pi) => sum + (items.get(pi.item_id)?.lab_cost ?? 0) * pi.quantity, 0);
    const digital = pkg.items.some((pi) => items.get(pi.item_id)?.kind === "digital");
    return { ...line, kind: "package", refId: pkg.id, name: pkg.name, unitPrice: pkg.price, unitLabCost: labCost, lineTotal: pkg.price * line.quantity, digital };
  });
  const option = sheet.shipping.find((s) => s.id === shippingOptionId);
  if (!option) throw invalidField("shipping_option_id", `No shipping option ${shippingOptionId} on this gallery's price sheet.`);
  const subtotal = priced.reduce((n, l) => n + l.lineTotal, 0);
  const discount = !promo ? 0 : promo.kind === "percent" ? round((subtotal * promo.value) / 100) : Math.min(promo.value, subtotal);
  const tax = round(((subtotal - discount) * sheet.taxRateBps) / 10_000);
  const shipping = option.type === "home" ? option.price : 0;
  const total = subtotal - discount + tax + shipping;
  const labCost = priced.reduce((n, l) => n + l.unitLabCost * l.quantity, 0);
  return { lines: priced, subtotal, discount, tax, shipping, total, labCost, option, fee: round((total * platformFeePercent) / 100) };
}

/** A background only on a print that allows one (an item, or a package holding such a print), and only one the studio keeps. */
function checkBackground(line: CartLine, n: number, items: Map<string, SheetItem>, packages: Map<string, SheetPackage>, backgroundIds: ReadonlySet<string>) {
  const prints = line.item_id !== undefined ? [items.get(line.item_id)] : (packages.get(line.package_id!)?.items ?? []).map((pi) => items.get(pi.item_id));
  if (!prints.some((i) => i?.kind === "print" && i.allow_backgrounds)) throw invalidField(`lines.${n}.background_id`, "This item is not offered on a background: leave background_id out.");
  if (!backgroundIds.has(line.background_id!)) throw invalidField(`lines.${n}.background_id`, `No background ${line.background_id} at this studio.`);
}

/**
 * What refunding one line gives back: its share of what was paid for goods (its
 * total less its share of the discount, plus its share of the tax). Shipping is
 * refunded only with the whole order.
 */
export function lineRefundAmount(order: { subtotal: number; discount: number; tax: number }, lineTotal: number): number {
  if (order.subtotal === 0) return 0;
  return round((lineTotal * (order.subtotal - order.discount + order.tax)) / order.subtotal);
}
