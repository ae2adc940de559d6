import type { Metadata } from "next";
import { and, eq } from "drizzle-orm";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { getDb } from "@/lib/foundation/db/client";
import { orderItems, orders } from "@/lib/foundation/db/schema";
import { signPreviewUrl } from "@/lib/services/galleries/preview-urls";
import { DetailHeader } from "@/components/ui/detail-header";
import { OrderDetail } from "@/components/orders/order-detail";
import { OrderPrintFiles } from "@/components/production/order-print-files";
import { PhotoRetentionNote } from "@/components/orders/photo-retention-note";
import { orderPhotoRetention } from "@/lib/services/orders/photo-retention";

export const metadata: Metadata = { title: "Order" };

/** The order page; each photo's preview URL is signed here (server side) for the order's child. */
export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { studio, role } = await requireMember();
  const db = await getDb();
  const [order] = await db.select({ subjectId: orders.subjectId }).from(orders).where(and(eq(orders.id, id), eq(orders.accountId, studio.id)));
  const photos = order?.subjectId ? await db.select({ photoId: orderItems.photoId }).from(orderItems).where(eq(orderItems.orderId, id)) : [];
  const retention = await orderPhotoRetention(db, studio.id, id);
  const previews = Object.fromEntries(photos.map((p) => [p.photoId, signPreviewUrl(p.photoId, order!.subjectId!)]));
  return (
    <div className="space-y-6">
      <DetailHeader back={{ href: "/orders", label: "Orders" }} title={<span className="font-mono text-lg">{id}</span>} />
      {retention ? <PhotoRetentionNote {...retention} /> : null}
      <OrderDetail id={id} previews={previews} canChange={roleAtLeast(role, "admin")} />
      <OrderPrintFiles orderId={id} canFix={roleAtLeast(role, "photographer")} />
    </div>
  );
}
