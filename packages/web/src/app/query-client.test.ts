import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-error';
import { createQueryClient } from './query-client';

/** Runs one read through the app's client; `answers` are thrown (errors) or returned in turn. */
async function read(answers: unknown[]) {
  const client = createQueryClient();
  let calls = 0;
  const started = performance.now();
  const outcome = await client
    .fetchQuery({
      queryKey: ['read'],
      queryFn: async () => {
        const answer = answers[calls++];
        if (answer instanceof Error) throw answer;
        return answer;
      },
    })
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  client.clear();
  return { outcome, calls, ms: performance.now() - started };
}

describe('the query client', () => {
  it('gives a server error two quick retries, then reports it within about a second', async () => {
    const failure = new ApiError(500, 'Internal failure', null);
    const { outcome, calls, ms } = await read([failure, failure, failure, 'never read']);
    expect(outcome).toEqual({ error: failure });
    expect(calls).toBe(3);
    // 300 + 600 ms of waiting, where React Query's default waits 1 + 2 s.
    expect(ms).toBeGreaterThanOrEqual(850);
    expect(ms).toBeLessThan(2_900);
  });

  it('recovers when a retry succeeds', async () => {
    const { outcome, calls } = await read([new TypeError('Failed to fetch'), { ok: true }]);
    expect(outcome).toEqual({ value: { ok: true } });
    expect(calls).toBe(2);
  });

  it('never retries a 4xx answer', async () => {
    const notFound = new ApiError(404, 'Nodes not found.', 10001);
    const { outcome, calls } = await read([notFound, 'never read']);
    expect(outcome).toEqual({ error: notFound });
    expect(calls).toBe(1);
  });
});
