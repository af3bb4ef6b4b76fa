import type { TermsFile } from '@fleetdeck/contract';

/** Query keys of the public policy pages, from one factory. */
export const policyKeys = {
  all: ['public', 'policies'] as const,
  document: (file: TermsFile) => [...policyKeys.all, file] as const,
};
