// Inngest without an Inngest server (none can be installed here): a local HTTP
// server takes the events the app sends (the dev server's event API), and
// executeLikeInngest drives a serve endpoint the way Inngest's executor does.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedEvents = { path: string; body: any }[];

/** The dev server's event API: records every batch; answers 503 while `failing()` says so. */
export async function startFakeEventApi(failing: () => boolean = () => false) {
  const received: ReceivedEvents = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: raw ? JSON.parse(raw) : null });
      if (failing()) return void res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: "down", status: 503 }));
      const events = JSON.parse(raw || "[]") as { id: string }[];
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids: events.map((e) => e.id), status: 200 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** POSTs one executor request to a serve endpoint (in-process route or real HTTP). */
export type ServeCall = (query: string, body: string) => Promise<Response>;

/** What Inngest's executor does: call the function, store each step's result, call again, until it returns. */
export async function executeLikeInngest(post: ServeCall, fnId: string, event: Record<string, unknown>) {
  const steps: Record<string, { type: "data"; data: unknown } | { type: "error"; error: unknown }> = {};
  const stack: string[] = [];
  const ran: string[] = [];
  for (let request = 1; request <= 20; request++) {
    const body = { event, events: [event], steps, ctx: { run_id: "01INNGESTRUN", attempt: 0, disable_immediate_execution: false, use_api: false, stack: { stack, current: stack.length } }, version: 1 };
    const res = await post(`fnId=${fnId}&stepId=step`, JSON.stringify(body));
    const out = await res.json();
    if (res.status === 200) return { result: out, ran, requests: request };
    if (res.status !== 206) throw new Error(`/api/inngest answered ${res.status}: ${JSON.stringify(out)}`);
    for (const op of out as { id: string; op: string; name?: string; data?: unknown; error?: unknown }[]) {
      ran.push(`${op.op}:${op.name}`);
      steps[op.id] = op.op === "StepError" || op.op === "StepFailed" ? { type: "error", error: op.error } : { type: "data", data: op.data ?? null };
      stack.push(op.id);
      if (op.op === "StepError" || op.op === "StepFailed") return { error: op.error, ran, requests: request };
    }
  }
  throw new Error("the function did not finish in 20 requests");
}
