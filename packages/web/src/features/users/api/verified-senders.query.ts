import { API_PATHS, SuccessBodySchema, VerifiedSendersSchema } from '@fleetdeck/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { userKeys } from './users.keys';

/** GET /v1/admin/ses_verified_email. */
export function useVerifiedSenders() {
  return useQuery({
    queryKey: userKeys.senders(),
    queryFn: ({ signal }) =>
      apiJson(API_PATHS.sesVerifiedEmail, VerifiedSendersSchema, signal ? { signal } : {}),
    refetchOnWindowFocus: false,
  });
}

function useSenderMutation<T>(call: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.senders() }),
  });
}

/** POST: mails a code to the address. */
export const useRequestSender = () =>
  useSenderMutation((email: string) =>
    apiJson(API_PATHS.sesVerifiedEmail, SuccessBodySchema, { method: 'POST', body: { email } }),
  );

/** PUT: confirms the code. */
export const useVerifySender = () =>
  useSenderMutation((input: { email: string; verification_code: string }) =>
    apiJson(API_PATHS.sesVerifiedEmail, SuccessBodySchema, { method: 'PUT', body: input }),
  );

/** DELETE: removes an address. */
export const useRemoveSender = () =>
  useSenderMutation((email: string) =>
    apiJson(`${API_PATHS.sesVerifiedEmail}?email=${encodeURIComponent(email)}`, SuccessBodySchema, {
      method: 'DELETE',
    }),
  );
