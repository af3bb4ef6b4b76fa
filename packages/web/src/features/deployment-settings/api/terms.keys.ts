/** Query keys of Privacy Policy and Terms, from one factory. */
export const termsKeys = {
  all: ['deployment-settings', 'terms'] as const,
  policy: () => [...termsKeys.all, 'policy'] as const,
};
