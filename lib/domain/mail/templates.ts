import { composeLetter, type Block } from "./compose-letter";
import type { MailMessage } from "./message";

/**
 * Every message the app sends, in plain words, addressed to the studio by its
 * name. Each has a text part and an HTML part saying the same thing; the HTML is
 * built from escaped text, so a studio named "<b>" is shown, never rendered.
 */
const PRODUCT = "Print Studio";

function compose(to: string, subject: string, studio: string, blocks: Block[]): MailMessage {
  return composeLetter({ to, subject: `${subject} · ${PRODUCT}`, greeting: `Hello ${studio},`, blocks, signature: PRODUCT });
}

export function passwordResetMail(to: string, studio: string, url: string): MailMessage {
  return compose(to, "Reset your password", studio, [
    { kind: "p", text: `Someone asked to reset the password of ${studio} on ${PRODUCT}. If it was you, choose a new password here. The link works once, for one hour.` },
    { kind: "link", label: "Choose a new password", url },
    { kind: "p", text: "If it was not you, ignore this message: your password stays as it is." },
  ]);
}

export function passwordChangedMail(to: string, studio: string, when: Date): MailMessage {
  return compose(to, "Your password was changed", studio, [
    { kind: "p", text: `The password of ${studio} was changed on ${when.toUTCString()}. Every other signed-in session has been signed out.` },
    { kind: "p", text: "If you did not do this, reset your password at once from the sign-in page (Forgot password?) and check your API keys." },
  ]);
}

export function verifyAddressMail(to: string, studio: string, url: string): MailMessage {
  return compose(to, "Confirm your email address", studio, [
    { kind: "p", text: `Please confirm that ${to} is the address of ${studio}. The link works once, for 24 hours.` },
    { kind: "link", label: "Confirm this address", url },
    { kind: "p", text: "If you did not sign up or ask for this, ignore this message." },
  ]);
}

export function confirmNewAddressMail(to: string, studio: string, url: string): MailMessage {
  return compose(to, "Confirm your new email address", studio, [
    { kind: "p", text: `You asked to sign in to ${studio} with ${to} from now on. Confirm it here; until then the old address stays in use. The link works once, for 24 hours.` },
    { kind: "link", label: "Use this address", url },
    { kind: "p", text: "If you did not ask for this, ignore this message." },
  ]);
}

export function addressChangeRequestedMail(to: string, studio: string, newAddress: string): MailMessage {
  return compose(to, "A change of your email address was asked for", studio, [
    { kind: "p", text: `Someone signed in to ${studio} asked to change its email address from ${to} to ${newAddress}. It changes only once the new address is confirmed.` },
    { kind: "p", text: "If this was not you, change your password now: that signs every session out." },
  ]);
}

export function addressChangedMail(to: string, studio: string, newAddress: string): MailMessage {
  return compose(to, "Your email address was changed", studio, [
    { kind: "p", text: `${studio} now signs in with ${newAddress} instead of ${to}.` },
    { kind: "p", text: "If this was not you, contact the operator of this studio at once." },
  ]);
}

export function invitationMail(to: string, studio: string, inviter: string, role: string, url: string): MailMessage {
  return compose(to, `Join ${studio}`, to, [
    { kind: "p", text: `${inviter} invited you to join ${studio} on ${PRODUCT} as ${role === "admin" ? "an" : "a"} ${role}.` },
    { kind: "link", label: "Accept the invitation", url },
    { kind: "p", text: "The link works once, for seven days. If you did not expect it, ignore this message." },
  ]);
}

/** To someone who left a studio, or (`left: false`) whom an admin removed from it. */
export function removedFromStudioMail(to: string, studio: string, left = false): MailMessage {
  return compose(to, left ? `You left ${studio}` : `You were removed from ${studio}`, to, [
    { kind: "p", text: `You are no longer a member of ${studio} on ${PRODUCT}. Your sessions were ended; sign in again to reach your other studios.` },
  ]);
}

export function autoTopUpFailedMail(to: string, studio: string, reason: string): MailMessage {
  return compose(to, "Auto top-up is off", studio, [
    { kind: "p", text: `Your balance went under the auto top-up threshold and we tried to charge your saved card. ${reason}` },
    { kind: "p", text: "Auto top-up is now turned off, so nothing more will be tried. Buy tokens or turn auto top-up on again from the wallet once the card is sorted out." },
  ]);
}

export function twoFactorChangedMail(to: string, person: string, on: boolean): MailMessage {
  return compose(to, on ? "Two-factor sign-in is on" : "Two-factor sign-in is off", person, [
    {
      kind: "p",
      text: on
        ? `Signing in to ${PRODUCT} as ${to} now also needs a code from your authenticator app, or one of your recovery codes. Keep the recovery codes somewhere safe, away from your phone.`
        : `Signing in to ${PRODUCT} as ${to} needs only your password again: two-factor sign-in was turned off.`,
    },
    { kind: "p", text: "If this was not you, reset your password at once from the sign-in page (Forgot password?)." },
  ]);
}

export function recoveryCodeUsedMail(to: string, person: string, left: number): MailMessage {
  return compose(to, "A recovery code was used to sign in", person, [
    { kind: "p", text: `Someone signed in as ${to} with one of your recovery codes instead of the authenticator app. ${left} unused code${left === 1 ? "" : "s"} left.` },
    { kind: "p", text: "If that was you and your phone is lost, set two-factor up again on the account page: it gives you new codes. If it was not you, reset your password at once." },
  ]);
}

export function twoFactorRequiredMail(to: string, person: string, studio: string, url: string): MailMessage {
  return compose(to, `${studio} now requires two-factor sign-in`, person, [
    { kind: "p", text: `${studio} asks its owners and admins to sign in with a second factor. Until you turn it on, you can open your account page but not act for ${studio}.` },
    { kind: "link", label: "Turn on two-factor sign-in", url },
  ]);
}

export function studioDeletedMail(to: string, person: string, studio: string, founder: boolean): MailMessage {
  return compose(to, `${studio} was deleted`, person, [
    {
      kind: "p",
      text: founder
        ? `${studio} and its login ${to} were deleted from ${PRODUCT}, with its wallet, agencies, rosters, photos, files, API keys and webhooks. Nothing of it can be restored.`
        : `${studio} was deleted by its owner, with everything it held. Your own login and your other studios are not affected.`,
    },
    { kind: "p", text: founder ? "If you did not do this, contact the operator of this service at once." : "You do not need to do anything." },
  ]);
}
