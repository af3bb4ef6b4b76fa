import { SETTINGS_PATHS } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { termsKeys } from './terms.keys';

/** GET /v1/terms_policy (public): links to the stored documents, null when none. */
export async function fetchTermsLinks(signal?: AbortSignal) {
  const { TermsLinksSchema } = await import('./terms-links-schemas');
  return apiJson(SETTINGS_PATHS.termsLinks, TermsLinksSchema, {
    session: 'public',
    ...(signal ? { signal } : {}),
  });
}

export function useTermsLinks() {
  return useQuery({
    queryKey: termsKeys.links(),
    queryFn: ({ signal }) => fetchTermsLinks(signal),
    staleTime: 60_000,
    retry: false,
  });
}
