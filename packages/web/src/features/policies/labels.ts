/**
 * Copy of the public policy pages (access §2 /login: "links to privacy policy and terms"). The
 * spec quotes none of it.
 */
export const POLICY_LABELS = {
  privacyPolicy: 'Privacy Policy',
  termsOfService: 'Terms of Service',
  notPublished: 'No {document} has been published yet',
  notPublishedHint:
    'The administrator of this deployment has not added one. Please contact them if you need it.',
  openFile: 'Open as a separate page',
  loading: 'Loading the {document}',
  tryAgain: 'Try again',
  /** The frame's accessible name for an HTML document. */
  frameTitle: '{document} (HTML, shown without scripts)',
} as const;
