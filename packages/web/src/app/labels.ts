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
  /** The button under a chart that shows its values as a table, and hides them again. */
  showTable: 'Show table',
  hideTable: 'Hide table',
  /** Read after the button's words (hidden visually), so each chart's button has its own name. */
  ofChart: 'of {chart}',
  /** The name of a chart's table, and of the box it scrolls in. */
  chartTable: 'Table of {chart}',
  /** A cell of a chart's table with no value (a line without a point at that time). */
  noValue: '—',
} as const;
