import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orders, printFiles, subjects, type OrderShipping } from "@/lib/foundation/db/schema";
import { sizeName } from "./present-batch";
import type { BatchRow } from "./batches";

export type BatchLine = {
  order: string;
  item: string;
  product_code: string;
  size: string;
  quantity: number;
  file: string;
  ship_to: string;
  school_batch: string;
  child: string;
  class: string;
  teacher: string;
  /** Where the print file is stored (not a manifest column); null once the order's photo retention removed it. */
  fileKey: string | null;
  widthPx: number;
  heightPx: number;
};

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "x";
/** `{order}_{item}_{product}_{qty}.jpg`, as labs file them. */
export const printFileName = (order: string, item: string, product: string, qty: number) => `${fileSafe(order)}_${fileSafe(item)}_${fileSafe(product)}_${qty}.jpg`;

function shipTo(s: OrderShipping): string {
  if (s.type === "school") return s.name;
  const a = s.address ?? {};
  return [a.name, a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.state, a.country].filter(Boolean).join(", ");
}

/**
 * What goes to the lab: every rendered file of the batch (held ones stay behind)
 * with its order's child, class and teacher. School-bulk batches are sorted by
 * teacher, class and child so the lab packs each classroom together; direct ones by order.
 */
export async function batchLines(db: Db, batch: BatchRow): Promise<BatchLine[]> {
  const rows = await db
    .select({ file: printFiles, shipping: orders.shipping, child: subjects.name, className: subjects.className, teacher: subjects.teacher })
    .from(printFiles)
    .innerJoin(orders, eq(orders.id, printFiles.orderId))
    .leftJoin(subjects, and(eq(subjects.id, orders.subjectId), eq(subjects.accountId, orders.accountId)))
    .where(and(eq(printFiles.accountId, batch.accountId), eq(printFiles.batchId, batch.id), inArray(printFiles.status, ["rendered"])))
    .orderBy(asc(printFiles.orderId), asc(printFiles.orderItemId), asc(printFiles.id));
  const lines = rows.map(({ file: f, shipping, child, className, teacher }) => ({
    order: f.orderId,
    item: f.orderItemId,
    product_code: f.productSku,
    size: sizeName(f),
    quantity: f.quantity,
    file: printFileName(f.orderId, f.orderItemId, f.productSku, f.quantity),
    ship_to: shipTo(shipping),
    school_batch: shipping.type === "school" ? (shipping.batch_date ?? "") : "",
    child: child ?? "",
    class: className ?? "",
    teacher: teacher ?? "",
    fileKey: f.fileKey,
    widthPx: f.widthPx!,
    heightPx: f.heightPx!,
  }));
  if (batch.shipping === "school") {
    const key = (l: BatchLine) => [l.teacher, l.class, l.child, l.order];
    lines.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      for (let i = 0; i < ka.length; i++) {
        const c = ka[i]!.localeCompare(kb[i]!);
        if (c !== 0) return c;
      }
      return 0;
    });
  }
  return lines;
}
