import { AcceptInvitationForm } from "@/components/auth/accept-invitation-form";
import { getDb } from "@/lib/foundation/db/client";
import { describeInvitation } from "@/lib/services/team/invitations";

export const metadata = { title: "Join a studio" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  // Named before anyone presses Accept: which studio, as what, invited by whom.
  const invitation = token ? await describeInvitation(await getDb(), token) : null;
  return <AcceptInvitationForm token={token ?? ""} invitation={invitation} />;
}
