import type { MfaChallengeKind } from '@fleetdeck/contract';

/**
 * What a sign-in in progress needs to carry from one public screen to the next, kept only in
 * memory (never in storage or the URL): the password typed on /sign-up until the e-mail is
 * verified (for the automatic sign-in of access §4), and the MFA step's session until its code
 * is entered. A reload forgets both; the screens then send the user back to sign in.
 */
export interface PendingSignUp {
  userName: string;
  password: string;
}

export interface PendingMfaStep {
  userName: string;
  session: string;
  challenge: MfaChallengeKind;
  phoneHint: string | undefined;
}

let signUp: PendingSignUp | null = null;
let mfaStep: PendingMfaStep | null = null;

export function rememberSignUp(value: PendingSignUp): void {
  signUp = value;
}

/** The sign-up's credentials, only for the same address. */
export function pendingSignUp(userName: string): PendingSignUp | null {
  return signUp && signUp.userName.toLowerCase() === userName.trim().toLowerCase() ? signUp : null;
}

export function forgetSignUp(): void {
  signUp = null;
}

export function rememberMfaStep(value: PendingMfaStep): void {
  mfaStep = value;
}

export function pendingMfaStep(): PendingMfaStep | null {
  return mfaStep;
}

export function forgetMfaStep(): void {
  mfaStep = null;
}
