import { QueryClient } from '@tanstack/react-query';
import { isClientError } from '../lib/api-error';

const MAX_QUERY_RETRIES = 2;

/**
 * One client for the app. 4xx answers are final, so only network and server errors retry.
 * Reads wait for the network to come back (React Query's default); a save made offline fails
 * at once instead of waiting unseen and firing minutes later, and the form keeps its values.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !isClientError(error) && failureCount < MAX_QUERY_RETRIES,
        staleTime: 30_000,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
