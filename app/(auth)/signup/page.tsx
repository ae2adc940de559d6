import { redirect } from "next/navigation";
import { optionalAccount } from "@/lib/services/sign-in/current-account";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { config } from "@/lib/foundation/config";

export const metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await optionalAccount()) redirect("/dashboard");
  // Said before it arrives: the bonus is granted when the address is confirmed.
  return <SignUpForm bonusTokens={config().SIGNUP_BONUS_TOKENS} />;
}
