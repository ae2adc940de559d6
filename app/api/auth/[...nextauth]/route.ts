import NextAuth from "next-auth";
import { authOptions } from "@/lib/services/sign-in/next-auth-options";

export const dynamic = "force-dynamic";

// Options are built per request: the secret comes from the data folder, which
// must not be touched while `next build` imports this module.
async function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(req, { params: await ctx.params });
}

export { handler as GET, handler as POST };
