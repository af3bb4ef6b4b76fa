import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { PushDispatcher } from './push-dispatcher.js';
import type { PushDelivery, SendOutcome } from './push-sender.js';

const delivery = (token: string): PushDelivery => ({
  platformArn: 'arn:app',
  platform: 'GCM',
  credentials: { kind: 'fcm', project_id: 'p', client_email: 'e', private_key: 'k' },
  deviceToken: token,
  message: { title: 't', body: 'b', data: {} },
});

function scripted(outcomes: Record<string, SendOutcome[]>) {
  const calls: string[] = [];
  return {
    calls,
    sender: {
      send: (d: PushDelivery) => {
        calls.push(d.deviceToken);
        return Promise.resolve(outcomes[d.deviceToken]?.shift() ?? { result: 'sent' as const });
      },
      close: () => Promise.resolve(),
    },
  };
}

describe('PushDispatcher', () => {
  it('retries a throttled delivery with backoff and gives up after the last attempt', async () => {
    const { sender, calls } = scripted({
      flaky: [{ result: 'retry', reason: '503' }],
      down: Array.from({ length: 5 }, () => ({ result: 'retry' as const, reason: '503' })),
    });
    const dispatcher = new PushDispatcher(sender, () => Promise.resolve(), createLogger('silent'), {
      concurrency: 2,
      maxQueue: 10,
      maxAttempts: 3,
      retryBaseMs: 5,
    });
    dispatcher.enqueue(delivery('flaky'), 'e1');
    dispatcher.enqueue(delivery('down'), 'e2');
    await dispatcher.whenIdle();
    expect(calls.filter((token) => token === 'flaky')).toHaveLength(2);
    expect(calls.filter((token) => token === 'down')).toHaveLength(3);
    expect(dispatcher.counters).toMatchObject({ sent: 1, failed: 1, retried: 3 });
  });

  it('drops deliveries past the cap instead of buffering them, and removes dead endpoints', async () => {
    const removed: string[] = [];
    const { sender } = scripted({ gone: [{ result: 'invalid_token', reason: '410' }] });
    const dispatcher = new PushDispatcher(
      sender,
      (arn) => {
        removed.push(arn);
        return Promise.resolve();
      },
      createLogger('silent'),
      { concurrency: 1, maxQueue: 2, maxAttempts: 1, retryBaseMs: 5 },
    );
    const accepted = ['gone', 'a', 'b', 'c', 'd'].map((token) =>
      dispatcher.enqueue(delivery(token), `endpoint-${token}`),
    );
    // One starts at once, two wait, the rest are dropped.
    expect(accepted).toEqual([true, true, true, false, false]);
    await dispatcher.whenIdle();
    expect(dispatcher.counters).toMatchObject({ sent: 2, dropped: 2, invalidTokens: 1 });
    expect(removed).toEqual(['endpoint-gone']);
  });
});
