import { MESSAGES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  canCancelJob,
  cancelledAt,
  executionStatusLabel,
  jobGroupsDisplay,
  jobNodesDisplay,
  jobRowAction,
  jobStatusLabel,
} from './job-display';
import { JOB_MODES } from './job-mode';

describe('jobRowAction', () => {
  it('offers Archive for a cancelled job', () => {
    expect(jobRowAction('cancelled')).toBe('archive');
    expect(canCancelJob('cancelled')).toBe(false);
  });

  it('offers Cancel Job for every job not cancelled, a finished one too (fleet-management §4)', () => {
    expect(jobRowAction('active')).toBe('cancel');
    expect(jobRowAction('finished')).toBe('cancel');
    expect(canCancelJob('finished')).toBe(true);
  });
});

describe('status labels', () => {
  it('names every job status', () => {
    expect(jobStatusLabel('active')).toBe('Active');
    expect(jobStatusLabel('finished')).toBe('Finished');
    expect(jobStatusLabel('cancelled')).toBe('Cancelled');
  });

  it('calls a successful update Success on fleet jobs and Succeeded on fault jobs', () => {
    expect(executionStatusLabel('success', JOB_MODES.fleet)).toBe('Success');
    expect(executionStatusLabel('success', JOB_MODES.fault)).toBe('Succeeded');
    expect(executionStatusLabel('in-progress', JOB_MODES.fault)).toBe('In progress');
  });
});

describe('jobGroupsDisplay', () => {
  it('lists up to 20 groups and shows the all-nodes group as All (FFFF-FFFF)', () => {
    const groups = [
      { group_id: 'FFFF-FFFF', group_name: 'All' },
      ...Array.from({ length: 19 }, (_, i) => ({ group_id: `G-${i}`, group_name: '' })),
    ];
    const display = jobGroupsDisplay(groups);
    expect(display.kind).toBe('list');
    if (display.kind !== 'list') return;
    expect(display.items).toHaveLength(20);
    expect(display.items[0]).toBe('All (FFFF-FFFF)');
    expect(display.items[1]).toBe('G-0');
  });

  it('names a group with its id when the server knows its name', () => {
    expect(jobGroupsDisplay([{ group_id: '12AB-34CD', group_name: 'Pune ACs' }])).toEqual({
      kind: 'list',
      items: ['Pune ACs (12AB-34CD)'],
    });
  });

  it('gives the spec message instead of the list beyond 20 groups', () => {
    const groups = Array.from({ length: 21 }, (_, i) => ({ group_id: `G-${i}`, group_name: '' }));
    expect(jobGroupsDisplay(groups)).toEqual({
      kind: 'tooMany',
      message: MESSAGES.groupsMoreThan20,
    });
  });

  it('says none for a job aimed at nodes only', () => {
    expect(jobGroupsDisplay([])).toEqual({ kind: 'none' });
  });
});

describe('jobNodesDisplay', () => {
  it('lists up to 10 nodes', () => {
    const nodes = Array.from({ length: 10 }, (_, i) => `n${i}`);
    expect(jobNodesDisplay(nodes)).toEqual({ kind: 'list', items: nodes });
  });

  it('points to the table beyond 10 nodes', () => {
    const nodes = Array.from({ length: 11 }, (_, i) => `n${i}`);
    expect(jobNodesDisplay(nodes)).toEqual({ kind: 'tooMany', message: MESSAGES.nodesMoreThan10 });
  });
});

describe('cancelledAt', () => {
  it('is the cancelled time of a cancelled job only', () => {
    expect(cancelledAt({ status: 'cancelled', canceled_timestamp: 5 })).toBe(5);
    expect(cancelledAt({ status: 'cancelled' })).toBeUndefined();
    expect(cancelledAt({ status: 'finished', canceled_timestamp: 5 })).toBeUndefined();
  });
});
