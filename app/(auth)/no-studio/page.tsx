import { redirect } from "next/navigation";
import { NoStudio } from "@/components/auth/no-studio";
import { getDb } from "@/lib/foundation/db/client";
import { membershipFor } from "@/lib/domain/identity/membership";
import { createOwnStudio, requireAccount } from "@/lib/services/sign-in/current-account";

export const metadata = { title: "No studio" };
export const dynamic = "force-dynamic";

/** Runs on the server when the button is pressed (a Next.js server action: same-origin only). */
async function createStudio() {
  "use server";
  await createOwnStudio();
  redirect("/dashboard");
}

/** Where the studio's pages send a signed-in person who belongs to no studio. */
export default async function NoStudioPage() {
  const user = await requireAccount();
  if (await membershipFor(await getDb(), user.id)) redirect("/dashboard");
  return <NoStudio email={user.email} createStudio={createStudio} />;
}
