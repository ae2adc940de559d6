import type { Metadata } from "next";
import { ProductEditor } from "@/components/core/products/product-editor";

export const metadata: Metadata = { title: "Product" };

export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ProductEditor id={id} />;
}
