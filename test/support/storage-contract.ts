import { expect } from "vitest";
import type { ObjectStorage } from "@/lib/domain/storage";

/** What both storage drivers must do when a studio is deleted: one owner's objects in every area go, nobody else's. */
export async function expectDeleteOwnerFiles(store: ObjectStorage): Promise<void> {
  const owner = `acc_${Math.random().toString(36).slice(2, 10)}`;
  const other = `acc_${Math.random().toString(36).slice(2, 10)}`;
  const keys = [`uploads/${owner}/a.png`, `studio/${owner}/jobs/1/f.jpg`, `studio/${owner}/jobs/1/f.thumb.jpg`, `uploads/${other}/b.png`, `studio/${other}/jobs/2/g.jpg`];
  for (const k of keys) await store.put(k, Buffer.from(k), "image/png");
  expect(await store.deleteOwnerFiles(owner)).toBe(3);
  for (const k of keys.slice(0, 3)) expect(await store.get(k)).toBeNull();
  for (const k of keys.slice(3)) expect((await store.get(k))?.body.toString()).toBe(k);
  expect(await store.deleteOwnerFiles(owner)).toBe(0);
  await expect(store.deleteOwnerFiles("../x")).rejects.toThrow();
  await expect(store.deleteOwnerFiles("a/b")).rejects.toThrow();
}
