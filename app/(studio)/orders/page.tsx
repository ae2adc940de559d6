import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { OrdersList } from "@/components/orders/orders-list";
import { SalesCard } from "@/components/orders/sales-card";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage() {
  const { role } = await requireMember();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Orders</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">What parents bought from your galleries, paid on your Stripe account. Open an order to move it on, ship it or refund it.</p>
      </div>
      {roleAtLeast(role, "admin") ? <SalesCard /> : null}
      <OrdersList />
    </div>
  );
}
