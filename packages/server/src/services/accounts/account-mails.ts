/**
 * The account mails (sign-up code, sign-up attempt on an existing address, password reset code).
 * The spec quotes none of these texts; they are ours. Each carries its code on a line of its own,
 * and none says more than the recipient needs.
 */
export interface AccountMail {
  subject: string;
  text: string;
}

/** The sign-up verification code. */
export function signUpCodeMail(code: string, minutes: number): AccountMail {
  return {
    subject: 'Your Fleetdeck verification code',
    text: [
      'Welcome to Fleetdeck.',
      '',
      'Enter this code to verify your e-mail address and finish signing up:',
      '',
      code,
      '',
      `The code expires in ${minutes} minutes. If you did not sign up, ignore this mail.`,
    ].join('\n'),
  };
}

/** To the owner of an address someone tried to sign up with again. */
export function signUpExistingMail(loginUrl: string, forgotUrl: string): AccountMail {
  return {
    subject: 'Someone tried to sign up with your address',
    text: [
      'Someone just tried to create a Fleetdeck account with this e-mail address, which already',
      'has an account. Nothing was changed.',
      '',
      `If it was you, sign in at ${loginUrl}, or reset your password at ${forgotUrl}.`,
      'If it was not you, you can ignore this mail.',
    ].join('\n'),
  };
}

/** The password reset code. */
export function passwordResetMail(code: string, minutes: number, setUrl: string): AccountMail {
  return {
    subject: 'Reset your Fleetdeck password',
    text: [
      'We received a request to reset the password of your Fleetdeck account.',
      '',
      'Your verification code:',
      '',
      code,
      '',
      `Enter it at ${setUrl} within ${minutes} minutes.`,
      'If you did not ask for this, ignore this mail: your password stays the same.',
    ].join('\n'),
  };
}
