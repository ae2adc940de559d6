import { Suspense } from "react";
import { EnterCode } from "@/components/galleries/enter-code";

export const metadata = { title: "Enter your code" };

export default function EnterCodePage() {
  return (
    <Suspense>
      <EnterCode />
    </Suspense>
  );
}
