export const dynamic = "force-dynamic";

// Liveness for load balancers, and the bare-route baseline of the HTTP benchmark:
// no database, no auth, no wrapper.
export function GET() {
  return Response.json({ ok: true });
}
