import type { Metadata } from "next";
import { WebhooksManager } from "./webhooks-manager";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return <WebhooksManager />;
}
