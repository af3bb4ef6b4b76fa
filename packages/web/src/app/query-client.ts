import { QueryClient } from '@tanstack/react-query';
import { isClientError } from '../lib/api-error';

const MAX_QUERY_RETRIES = 2;
/** The first retry's wait; each later one waits twice as long (300, 600 ms). */
const FIRST_RETRY_DELAY_MS = 300;

/** Whether a failed read is tried again: 4xx answers are final, network and server errors not. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return !isClientError(error) && failureCount < MAX_QUERY_RETRIES;
}

/**
 * How long before the next try. Short: a list shows its error (with Try again) about a second
 * after the first failure instead of after three seconds of skeleton rows (React Query's default
 * waits 1 s, then 2 s).
 */
export function queryRetryDelay(failureCount: number): number {
  return FIRST_RETRY_DELAY_MS * 2 ** failureCount;
}

/**
 * One client for the app. Only network and server errors retry, quickly (above).
 * Reads wait for the network to come back (React Query's default); a save made offline fails
 * at once instead of waiting unseen and firing minutes later, and the form keeps its values.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
        staleTime: 30_000,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
