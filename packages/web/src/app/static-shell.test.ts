import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenAppCanReplaceShell } from './static-shell';

type State = { initialized: boolean; navigation: { state: string } };

function fakeRouter(initial: State) {
  const listeners = new Set<(state: State) => void>();
  const router = {
    state: initial,
    subscribe: (listener: (state: State) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next: State) {
      router.state = next;
      for (const listener of [...listeners]) listener(next);
    },
    listeners,
  };
  return router;
}

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function settledYet(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('whenAppCanReplaceShell (ADR 35)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the router to load the page and finish a redirect, and for the first reads', async () => {
    vi.useFakeTimers();
    const router = fakeRouter({ initialized: false, navigation: { state: 'idle' } });
    const probe = deferred();
    const ready = whenAppCanReplaceShell(router, [probe.promise, null]);

    expect(await settledYet(ready)).toBe(false);
    router.set({ initialized: true, navigation: { state: 'loading' } });
    expect(await settledYet(ready)).toBe(false);
    router.set({ initialized: true, navigation: { state: 'idle' } });
    expect(await settledYet(ready)).toBe(false);
    probe.resolve();
    expect(await settledYet(ready)).toBe(true);
    expect(router.listeners.size).toBe(0);
  });

  it('does not let a failed read keep the shell', async () => {
    vi.useFakeTimers();
    const router = fakeRouter({ initialized: true, navigation: { state: 'idle' } });
    const read = deferred();
    const ready = whenAppCanReplaceShell(router, [read.promise]);
    read.reject(new Error('offline'));
    expect(await settledYet(ready)).toBe(true);
  });

  it('gives up waiting after the longest wait, so the app shows its own loaders', async () => {
    vi.useFakeTimers();
    const router = fakeRouter({ initialized: false, navigation: { state: 'idle' } });
    const ready = whenAppCanReplaceShell(router, [new Promise(() => undefined)], 2_000);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(await settledYet(ready)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledYet(ready)).toBe(true);
  });
});
