import fc from 'fast-check';
import { NODE_OTA_STATUSES, type NodeReportedOtaStatus } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { plausibleNodeTime, reportApplies, type ExecutionState } from './ota-status.rules.js';

/** Applies reports in order, as the ingest does. */
function fold(
  reports: Array<{ status: NodeReportedOtaStatus; timestamp: number }>,
): ExecutionState {
  let state: ExecutionState = { status: 'triggered', timestamp: 0 };
  for (const report of reports) if (reportApplies(state, report)) state = { ...report };
  return state;
}

describe('OTA status ordering', () => {
  it('moves forward through progress to a final verdict', () => {
    const state = fold([
      { status: 'in-progress', timestamp: 10 },
      { status: 'in-progress', timestamp: 20 },
      { status: 'success', timestamp: 30 },
    ]);
    expect(state).toEqual({ status: 'success', timestamp: 30 });
  });

  it('ignores progress that arrives after the final verdict', () => {
    const state = fold([
      { status: 'success', timestamp: 30 },
      { status: 'in-progress', timestamp: 20 },
      { status: 'failed', timestamp: 40 },
    ]);
    expect(state).toEqual({ status: 'success', timestamp: 30 });
  });

  it('keeps the newer of two progress reports when they arrive out of order', () => {
    const state = fold([
      { status: 'in-progress', timestamp: 20 },
      { status: 'delayed', timestamp: 10 },
    ]);
    expect(state.status).toBe('in-progress');
  });

  it('lets only a final verdict replace a cancellation', () => {
    const cancelled: ExecutionState = { status: 'cancelled', timestamp: 50 };
    expect(reportApplies(cancelled, { status: 'in-progress', timestamp: 60 })).toBe(false);
    expect(reportApplies(cancelled, { status: 'success', timestamp: 60 })).toBe(true);
  });

  it('ends in the same final state whatever the order and duplication of one run (property)', () => {
    const final = fc.constantFrom<NodeReportedOtaStatus>('success', 'failed', 'rejected');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<NodeReportedOtaStatus>('in-progress', 'delayed'), {
          maxLength: 6,
        }),
        final,
        fc.integer({ min: 0, max: 1000 }),
        (progress, verdict, seed) => {
          const run = [
            ...progress.map((status, i) => ({ status, timestamp: 100 + i })),
            { status: verdict, timestamp: 200 },
          ];
          // Shuffle deterministically and duplicate some reports.
          const delivered = [...run, ...run.filter((_, i) => (i + seed) % 2 === 0)];
          delivered.sort(
            (a, b) => ((a.timestamp * 7919 + seed) % 97) - ((b.timestamp * 7919 + seed) % 97),
          );
          expect(fold(delivered)).toEqual({ status: verdict, timestamp: 200 });
        },
      ),
    );
  });

  it('covers every status a node reports', () => {
    for (const status of NODE_OTA_STATUSES)
      expect(reportApplies({ status: 'triggered', timestamp: 0 }, { status, timestamp: 1 })).toBe(
        true,
      );
  });

  it('believes node clocks only within a plausible window', () => {
    const now = 1_800_000_000;
    expect(plausibleNodeTime(now - 60, now)).toBe(true);
    expect(plausibleNodeTime(now + 3600, now)).toBe(false);
    expect(plausibleNodeTime(0, now)).toBe(false);
    expect(plausibleNodeTime(undefined, now)).toBe(false);
  });
});
