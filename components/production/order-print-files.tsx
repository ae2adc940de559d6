"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { PrintFileTile, type PrintFile } from "./print-file-tile";

/** Why a file has not shipped with the rest of its order. */
function waitingFor(f: PrintFile): string {
  if (f.status === "held") return "on hold (fix it below), then the next batch takes it";
  if (f.status === "pending") return "rendering";
  if (!f.batch_id || f.batch_status === "failed") return "waiting for the next batch";
  return `in a batch that is ${f.batch_status}`;
}

/** The order page's production card: each print file's picture, what is on hold with the reason, and (photographers up) its fix. */
export function OrderPrintFiles({ orderId, canFix = false }: { orderId: string; canFix?: boolean }) {
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ["production", "order", orderId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/production/orders/{id}/print-files", { params: { path: { id: orderId } } })),
    refetchInterval: (q) => (q.state.data?.data.some((f) => f.status === "pending") ? 2000 : false),
  });
  if (isPending) return <ListSkeleton label="Loading the print files" rows={1} />;
  if (error || !data) return <QueryError title="Could not load the print files." error={error} onRetry={() => void refetch()} />;
  if (data.data.length === 0) return null;
  const shipped = data.data.filter((f) => f.shipped).length;
  const waiting = data.data.filter((f) => !f.shipped);
  return (
    <Card title="Print files">
      {shipped > 0 && waiting.length > 0 ? (
        <div className="mb-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="print-files-waiting">
          <p className="font-medium">
            {shipped} of {data.data.length} print files shipped: the order ships when the rest do.
          </p>
          <ul className="list-disc pl-5">
            {waiting.map((f) => (
              <li key={f.id}>
                {f.quantity} × {f.size} in · {f.product_code}: {waitingFor(f)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {data.data.map((f) => (
          <PrintFileTile key={f.id} file={f} canFix={canFix} />
        ))}
      </ul>
    </Card>
  );
}
