import type { Metadata } from "next";
import { CreateProductCard } from "@/components/core/products/create-product-card";
import { ProductsList } from "@/components/core/products/products-list";

export const metadata: Metadata = { title: "Products" };

export default function ProductsPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Products</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          What your shop prints and sells. Size, bleed, minimum PPI and colour mode drive preflight checks of your customers&apos; files; public products are
          readable by storefront code through the unauth token (see Settings).
        </p>
      </div>
      <CreateProductCard />
      <ProductsList />
    </div>
  );
}
