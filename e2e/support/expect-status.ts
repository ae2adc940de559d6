/** Awaits an API call made through Playwright's request context, checks its status, and answers its JSON (the body in the error otherwise). */
export async function ok<T>(res: Promise<{ status(): number; json(): Promise<T>; text(): Promise<string> }>, status: number): Promise<T> {
  const r = await res;
  if (r.status() !== status) throw new Error(`${r.status()}: ${await r.text()}`);
  return r.json();
}
