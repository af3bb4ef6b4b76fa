/**
 * Screen text of the app's shell and shared controls that the spec does not word: names for
 * controls that show only an icon, and the skip link. Kept in one file like each feature's labels.
 */
export const APP_LABELS = {
  /** Every dialog's and toast's "X" button. */
  close: 'Close',
  /** The "X" that empties a file input. */
  clearFile: 'Clear file',
  skipToMain: 'Skip to main content',
  /** The header's account button; names who is signed in, as the button shows it. */
  accountButton: 'Account settings – {email}',
} as const;
