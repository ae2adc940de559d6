import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "./query-client";

/**
 * A job page's photo list: its first read is answered slowly (the server read the list before
 * the upload's row existed), the upload answers meanwhile and the page invalidates the list.
 */
async function listAfterUpload(client: QueryClient) {
  const photos: string[] = [];
  let releaseFirstRead!: () => void;
  let reads = 0;
  const queryFn = async () => {
    reads += 1;
    const seen = [...photos]; // what the database held when this read ran
    if (reads === 1) await new Promise<void>((resolve) => (releaseFirstRead = resolve));
    return seen;
  };
  const observer = new QueryObserver(client, { queryKey: ["job", 1, "files"], queryFn });
  const unsubscribe = observer.subscribe(() => {});
  await new Promise((r) => setTimeout(r, 0)); // the first read is in flight
  photos.push("IMG_0001.png"); // the upload commits and answers 201
  const invalidated = client.invalidateQueries({ queryKey: ["job", 1, "files"] });
  releaseFirstRead(); // the first read's (stale) answer arrives
  await invalidated;
  await new Promise((r) => setTimeout(r, 0));
  const shown = observer.getCurrentResult().data;
  unsubscribe();
  client.clear();
  return { shown, reads };
}

describe("AppQueryClient", () => {
  it("an invalidation during a query's first load reads again after the write", async () => {
    const { shown, reads } = await listAfterUpload(createQueryClient());
    expect(shown).toEqual(["IMG_0001.png"]);
    expect(reads).toBe(2);
  });

  it("TanStack's own client keeps the first load's stale answer (TanStack/query#8530): when this fails, upstream fixed it and AppQueryClient can go", async () => {
    const { shown, reads } = await listAfterUpload(new QueryClient({ defaultOptions: { queries: { retry: 1 } } }));
    expect(shown).toEqual([]);
    expect(reads).toBe(1);
  });

  it("a query that already has data is refetched once, as before", async () => {
    const client = createQueryClient();
    let n = 0;
    const observer = new QueryObserver(client, { queryKey: ["n"], queryFn: async () => ++n });
    const unsubscribe = observer.subscribe(() => {});
    await new Promise((r) => setTimeout(r, 5));
    expect(observer.getCurrentResult().data).toBe(1);
    await client.invalidateQueries({ queryKey: ["n"] });
    expect(observer.getCurrentResult().data).toBe(2);
    unsubscribe();
    client.clear();
  });
});
