import { serveSignedFile } from "@/lib/domain/storage/serve-signed-file";

// Signed file URLs for the local storage driver; every request checks its signature.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ key: string[] }> };

export async function GET(request: Request, { params }: Context) {
  return serveSignedFile(request, (await params).key);
}

export async function HEAD(request: Request, { params }: Context) {
  return serveSignedFile(request, (await params).key);
}
