import { redirect } from "next/navigation";
import { optionalAccount } from "@/lib/auth/current-account";
import { SignUpForm } from "@/components/auth/sign-up-form";

export const metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await optionalAccount()) redirect("/dashboard");
  return <SignUpForm />;
}
