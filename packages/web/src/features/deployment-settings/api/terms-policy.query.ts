import { SETTINGS_PATHS, TermsPolicySchema } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { termsKeys } from './terms.keys';

/** GET /v1/admin/terms_policy: content and public URL of both documents. */
export function fetchTermsPolicy(signal?: AbortSignal) {
  return apiJson(SETTINGS_PATHS.termsPolicy, TermsPolicySchema, signal ? { signal } : {});
}

export function useTermsPolicy() {
  return useQuery({
    queryKey: termsKeys.policy(),
    queryFn: ({ signal }) => fetchTermsPolicy(signal),
  });
}
