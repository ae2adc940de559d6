import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";
import { PriceSheetsEditor } from "@/components/orders/price-sheets-editor";

export const metadata: Metadata = { title: "Price sheets" };

export default async function PriceSheetsPage() {
  const { role } = await requireMember();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Price sheets</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          What parents can buy from a job&apos;s galleries: prints of your products and digital files at a retail price (with your lab cost), packages, tax and
          shipping. Assign a sheet to a job from the job&apos;s page or the API.
        </p>
      </div>
      <PriceSheetsEditor canEdit={roleAtLeast(role, "admin")} />
    </div>
  );
}
