import { OutboxViewer } from "@/components/operator/outbox-viewer";

export const metadata = { title: "Outbox" };

/** The operator's view of the mail outbox; the data comes from GET /v1/operator/outbox, which needs the operator token. */
export default function OutboxPage() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-8">
      <OutboxViewer />
    </main>
  );
}
