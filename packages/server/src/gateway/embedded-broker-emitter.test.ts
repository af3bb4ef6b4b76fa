import { describe, expect, it } from 'vitest';
import { createMessageEmitter } from './embedded-broker.js';

describe("the embedded broker's message emitter", () => {
  it('routes a burst of 200,000 publishes while deliveries are pending, without a queue to overflow the stack', () => {
    const mq = createMessageEmitter();
    // 100 deliveries that have not finished: with Aedes's default emitter every later message
    // waited in a queue, worked off by recursion (a RangeError at this size).
    const pending: Array<() => void> = [];
    mq.on('node/slow/#', (_message, done) => {
      pending.push(done);
    });
    for (let i = 0; i < 100; i += 1) mq.emit({ topic: 'node/slow/params/remote' });
    let routed = 0;
    expect(() => {
      for (let i = 0; i < 200_000; i += 1)
        mq.emit({ topic: 'node/a1/params/local' }, () => {
          routed += 1;
        });
    }).not.toThrow();
    expect(routed).toBe(200_000);
    for (const done of pending) done();
    expect(pending).toHaveLength(100);
  });
});
