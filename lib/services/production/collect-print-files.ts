import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orderItems, orders, priceSheets, printFiles, products } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";

/**
 * The print files these orders owe the lab: one per printed product of each line
 * (a package line has one per print item of the package, its quantity times the
 * line's). Written once: a second call finds them there (unique per line and item).
 */
export async function collectPrintFiles(db: Db, accountId: string, orderIds: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const lines = await db
    .select({ item: orderItems, sheetId: orders.priceSheetId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.accountId, accountId), inArray(orderItems.orderId, orderIds)));
  const sheetIds = [...new Set(lines.map((l) => l.sheetId).filter((s): s is string => !!s))];
  const sheets = sheetIds.length ? await db.select().from(priceSheets).where(and(eq(priceSheets.accountId, accountId), inArray(priceSheets.id, sheetIds))) : [];
  const sheetOf = new Map(sheets.map((s) => [s.id, s]));
  const wanted: { line: (typeof lines)[number]["item"]; sheetItemId: string; productId: string; quantity: number; backgroundId: string | null }[] = [];
  for (const { item, sheetId } of lines) {
    const sheet = sheetId ? sheetOf.get(sheetId) : undefined;
    if (!sheet) continue;
    const parts = item.kind === "package" ? (sheet.packages.find((p) => p.id === item.refId)?.items ?? []) : [{ item_id: item.refId, quantity: 1 }];
    for (const part of parts) {
      const sheetItem = sheet.items.find((i) => i.id === part.item_id);
      if (sheetItem?.kind !== "print" || !sheetItem.product_id) continue;
      // The parent's background goes on the prints that allow one (a package's other prints stay as shot).
      const backgroundId = sheetItem.allow_backgrounds ? item.backgroundId : null;
      wanted.push({ line: item, sheetItemId: sheetItem.id, productId: sheetItem.product_id, quantity: part.quantity * item.quantity, backgroundId });
    }
  }
  if (wanted.length === 0) return;
  const productIds = [...new Set(wanted.map((w) => w.productId))];
  const found = await db.select().from(products).where(and(eq(products.accountId, accountId), inArray(products.id, productIds)));
  const productOf = new Map(found.map((p) => [p.id, p]));
  const rows = wanted.flatMap((w) => {
    const product = productOf.get(w.productId);
    if (!product) return [];
    return [
      {
        id: newId("prf"),
        accountId,
        orderId: w.line.orderId,
        orderItemId: w.line.id,
        sheetItemId: w.sheetItemId,
        productId: product.id,
        productSku: product.sku,
        widthIn: product.widthIn,
        heightIn: product.heightIn,
        quantity: w.quantity,
        backgroundId: w.backgroundId,
      },
    ];
  });
  if (rows.length) await db.insert(printFiles).values(rows).onConflictDoNothing();
}
