import { SETTINGS_PATHS, type TermsFile } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, checkContract } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { policyKeys } from './policy.keys';

/**
 * GET /v1/terms_policy?file= (public): the published document, or null when there is none (the
 * Privacy Policy and Terms tab of Deployment Settings publishes them).
 */
export async function fetchPublicPolicy(file: TermsFile, signal?: AbortSignal) {
  const path = `${SETTINGS_PATHS.termsLinks}?file=${file}`;
  const [payload, { TermsLinksSchema }] = await Promise.all([
    apiRequest(path, { session: 'public', ...(signal ? { signal } : {}) }),
    loadSchemas(),
  ]);
  return checkContract(path, TermsLinksSchema, payload).document ?? null;
}

export function usePublicPolicy(file: TermsFile) {
  return useQuery({
    queryKey: policyKeys.document(file),
    queryFn: ({ signal }) => fetchPublicPolicy(file, signal),
    staleTime: 60_000,
  });
}
