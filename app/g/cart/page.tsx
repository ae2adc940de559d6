import { ParentCart } from "@/components/orders/parent-cart";

export const metadata = { title: "Your order" };

export default function CartPage() {
  return <ParentCart />;
}
