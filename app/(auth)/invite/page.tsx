import { AcceptInvitationForm } from "@/components/auth/accept-invitation-form";

export const metadata = { title: "Join a studio" };

export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <AcceptInvitationForm token={token ?? ""} />;
}
