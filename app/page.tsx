import Link from "next/link";
import { redirect } from "next/navigation";
import { optionalAccount } from "@/lib/services/sign-in/current-account";

export default async function Home() {
  if (await optionalAccount()) redirect("/dashboard");
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 px-6">
      <h1 className="text-4xl font-semibold text-slate-900">Print Studio</h1>
      <p className="text-lg text-slate-600">
        Print-ready files and studio workflows for photographers and print shops, through a studio web app and a REST API billed per token.
      </p>
      <div className="flex gap-3">
        <Link href="/signup" className="rounded-md bg-brand-600 px-4 py-2 text-white hover:bg-brand-700">
          Create an account
        </Link>
        <Link href="/signin" className="rounded-md border border-slate-300 bg-white px-4 py-2 hover:bg-slate-100">
          Sign in
        </Link>
      </div>
    </main>
  );
}
