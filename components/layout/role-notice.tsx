import Link from "next/link";
import type { Role } from "@/lib/domain/identity/roles";

const WHAT: Record<Role, string> = {
  owner: "the studio's owners (billing, members, deleting the studio)",
  admin: "the studio's owners and admins (members, API keys, webhooks, settings)",
  photographer: "photographers, admins and owners",
  viewer: "every member",
};

/** Shown instead of a page the member's role does not reach (the API would answer 403 FORBIDDEN_ROLE). */
export function RoleNotice({ need, role, studio }: { need: Role; role: Role; studio: string }) {
  return (
    <section role="status" className="mx-auto max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-6 text-sm text-amber-900">
      <h1 className="text-lg font-semibold">This page is for {WHAT[need]}</h1>
      <p className="mt-2">
        You are {role === "admin" || role === "owner" ? "an" : "a"} <strong>{role}</strong> in {studio}. Ask one of its owners if you need more.
      </p>
      <p className="mt-3">
        <Link className="text-brand-700 underline" href="/dashboard">
          Back to the wallet
        </Link>
      </p>
    </section>
  );
}
