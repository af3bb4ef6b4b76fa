import { describe, expect, it } from 'vitest';
import { Rng } from './prng.js';
import { TimerQueue } from './timer-queue.js';

describe('timer queue', () => {
  it('hands out entries in due order and only once due', () => {
    const queue = new TimerQueue();
    const rng = new Rng(11);
    const times = Array.from({ length: 500 }, () => rng.int(0, 10_000));
    times.forEach((at, index) => queue.push(at, index, index * 2));
    expect(queue.popDue(-1)).toBeUndefined();
    const out: number[] = [];
    for (let entry = queue.popDue(10_000); entry; entry = queue.popDue(10_000)) {
      expect(entry.tag).toBe(entry.item * 2);
      expect(entry.at).toBe(times[entry.item]);
      out.push(entry.at);
    }
    expect(out).toEqual([...times].sort((a, b) => a - b));
    expect(queue.size).toBe(0);
  });

  it('keeps entries that are not yet due', () => {
    const queue = new TimerQueue();
    queue.push(100, 1, 0);
    queue.push(50, 2, 0);
    expect(queue.popDue(60)?.item).toBe(2);
    expect(queue.popDue(60)).toBeUndefined();
    expect(queue.size).toBe(1);
    queue.clear();
    expect(queue.popDue(1_000)).toBeUndefined();
  });
});
