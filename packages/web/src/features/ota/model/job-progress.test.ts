import { describe, expect, it } from 'vitest';
import { JOB_MODES } from './job-mode';
import {
  completedCount,
  completedCountText,
  formatPercent,
  progressCaption,
  progressSections,
} from './job-progress';
import { summaryOf } from './job.fixtures';

describe('progressSections', () => {
  it('has the spec outcomes in the spec order, with counts and shares of the total', () => {
    const sections = progressSections(
      summaryOf({
        total: 10,
        started: 1,
        triggered: 2,
        in_progress: 3,
        failed: 1,
        success: 2,
        rejected: 1,
      }),
      JOB_MODES.fleet,
    );
    expect(sections.map((s) => [s.label, s.count, s.percent])).toEqual([
      ['Started', 1, 10],
      ['Triggered', 2, 20],
      ['In progress', 3, 30],
      ['Failed', 1, 10],
      ['Success', 2, 20],
      ['Rejected', 1, 10],
    ]);
  });

  it('labels success Succeeded on fault jobs', () => {
    const labels = progressSections(summaryOf({ total: 1, success: 1 }), JOB_MODES.fault).map(
      (s) => s.label,
    );
    expect(labels).toEqual([
      'Started',
      'Triggered',
      'In progress',
      'Failed',
      'Succeeded',
      'Rejected',
    ]);
  });

  it('adds delayed and cancelled nodes only when there are some, so the bar adds up', () => {
    const sections = progressSections(
      summaryOf({ total: 4, delayed: 1, cancelled: 2, success: 1 }),
      JOB_MODES.fleet,
    );
    expect(sections.map((s) => s.key)).toEqual([
      'started',
      'triggered',
      'in_progress',
      'failed',
      'success',
      'rejected',
      'delayed',
      'cancelled',
    ]);
    expect(sections.reduce((sum, s) => sum + s.percent, 0)).toBe(100);
  });

  it('never overflows the bar when the counts run ahead of the total', () => {
    const sections = progressSections(
      summaryOf({ total: 2, success: 3, failed: 1 }),
      JOB_MODES.fleet,
    );
    expect(sections.reduce((sum, s) => sum + s.percent, 0)).toBeCloseTo(100);
  });

  it('is all zero for a job without nodes, and ignores negative counts', () => {
    const sections = progressSections(summaryOf({ failed: -3 }), JOB_MODES.fleet);
    expect(sections.every((s) => s.percent === 0 && s.count === 0)).toBe(true);
  });
});

describe('completedCount', () => {
  it('counts the final states', () => {
    expect(
      completedCount(
        summaryOf({ total: 9, success: 2, failed: 1, rejected: 1, cancelled: 1, in_progress: 4 }),
      ),
    ).toBe(5);
  });
});

describe('progressCaption', () => {
  it('counts the final states of a job without cancelled nodes as completed', () => {
    expect(progressCaption(summaryOf({ total: 5, success: 2, failed: 1, in_progress: 2 }))).toBe(
      '3 of 5 nodes completed',
    );
  });

  it('does not call nodes cancelled before updating completed', () => {
    expect(progressCaption(summaryOf({ total: 3, cancelled: 3 }))).toBe(
      '0 of 3 nodes completed, 3 cancelled before updating',
    );
    expect(progressCaption(summaryOf({ total: 4, success: 1, failed: 1, cancelled: 2 }))).toBe(
      '2 of 4 nodes completed, 2 cancelled before updating',
    );
  });
});

describe('completedCountText', () => {
  it('is the bare count when no node was cancelled', () => {
    expect(completedCountText(3, summaryOf({ total: 3, success: 3 }))).toBe('3');
  });

  it('names the cancelled nodes inside the count', () => {
    expect(completedCountText(3, summaryOf({ total: 3, cancelled: 3 }))).toBe(
      '3 (3 cancelled, not updated)',
    );
  });
});

describe('formatPercent', () => {
  it('rounds to whole numbers, keeps one decimal below 10 and never shows 0 for a few', () => {
    expect(formatPercent(0)).toBe('0');
    expect(formatPercent(0.01)).toBe('<0.1');
    expect(formatPercent(3.333)).toBe('3.3');
    expect(formatPercent(66.666)).toBe('67');
  });
});
