import { describe, expect, it } from 'vitest';
import { EventStreamRegistry } from './event-stream-registry.js';

/** A stream that records whether it was evicted. */
function stream() {
  const state = { evicted: 0 };
  return { state, registered: { evict: () => (state.evicted += 1) } };
}

describe('EventStreamRegistry', () => {
  it("evicts the user's oldest stream, and only it, when one more than the cap opens", () => {
    const registry = new EventStreamRegistry(2);
    const [a, b, c, other] = [stream(), stream(), stream(), stream()];
    registry.open('u1', a.registered);
    registry.open('u1', b.registered);
    registry.open('u2', other.registered);
    registry.open('u1', c.registered);
    expect([a.state.evicted, b.state.evicted, c.state.evicted, other.state.evicted]).toEqual([
      1, 0, 0, 0,
    ]);
    expect(registry.openFor('u1')).toBe(2);
    expect(registry.openTotal()).toBe(3);
  });

  it('frees a place on release, once however often release is called', () => {
    const registry = new EventStreamRegistry(2);
    const [a, b, c] = [stream(), stream(), stream()];
    registry.open('u1', a.registered);
    const releaseB = registry.open('u1', b.registered);
    releaseB();
    releaseB();
    expect(registry.openFor('u1')).toBe(1);
    registry.open('u1', c.registered);
    expect(a.state.evicted).toBe(0);
    expect(registry.openFor('u1')).toBe(2);
  });

  it('does not count an evicted stream whose release runs later', () => {
    const registry = new EventStreamRegistry(1);
    const [a, b] = [stream(), stream()];
    const releaseA = registry.open('u1', a.registered);
    registry.open('u1', b.registered);
    releaseA();
    expect(registry.openFor('u1')).toBe(1);
    expect(b.state.evicted).toBe(0);
  });
});
