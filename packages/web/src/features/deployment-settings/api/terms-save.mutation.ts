import {
  SETTINGS_PATHS,
  SuccessBodySchema,
  TermsPolicyPutResponseSchema,
  type TermsFile,
} from '@fleetdeck/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { policyKeys } from '../../policies/api/policy.keys';
import { termsKeys } from './terms.keys';

/** PUT /v1/admin/terms_policy with one document. */
export function saveTermsDocument(file: TermsFile, content: string) {
  return apiJson(SETTINGS_PATHS.termsPolicy, TermsPolicyPutResponseSchema, {
    method: 'PUT',
    body: { [file]: content },
  });
}

/** DELETE /v1/admin/terms_policy?file=. */
export function deleteTermsDocument(file: TermsFile) {
  return apiJson(`${SETTINGS_PATHS.termsPolicy}?file=${file}`, SuccessBodySchema, {
    method: 'DELETE',
  });
}

/** The settings tab and the public policy pages show the documents: both refetch. */
function invalidateTerms(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: termsKeys.all }),
    queryClient.invalidateQueries({ queryKey: policyKeys.all }),
  ]);
}

export function useSaveTermsDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, content }: { file: TermsFile; content: string }) =>
      saveTermsDocument(file, content),
    onSuccess: () => invalidateTerms(queryClient),
  });
}

export function useDeleteTermsDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTermsDocument,
    onSuccess: () => invalidateTerms(queryClient),
  });
}
