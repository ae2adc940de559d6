"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { PrintFileTile } from "./print-file-tile";

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
  return (
    <Card title="Print files">
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {data.data.map((f) => (
          <PrintFileTile key={f.id} file={f} canFix={canFix} />
        ))}
      </ul>
    </Card>
  );
}
