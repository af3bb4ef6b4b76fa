import { describe, expect, it } from 'vitest';
import { listShowsAnyJob, withJobCancelled, withoutJob } from './job-cache';
import { jobOf, pageOf } from './job.fixtures';

const a = jobOf({ ota_job_id: 'a' });
const b = jobOf({ ota_job_id: 'b' });

describe('withJobCancelled', () => {
  it('shows the job as cancelled under both list names, with the cancel time', () => {
    const page = withJobCancelled(pageOf([a, b], 7, 'c'), 'b', 1_800_000_000);
    for (const jobs of [page.otaJobs, page.ota_jobs]) {
      expect(jobs.map((job) => job.status)).toEqual(['active', 'cancelled']);
      expect(jobs[1]?.canceled_timestamp).toBe(1_800_000_000);
    }
    expect(page.total).toBe(7);
    expect(page.next_id).toBe('c');
  });

  it('keeps a cancel time the server already gave', () => {
    const page = withJobCancelled(
      pageOf([jobOf({ ota_job_id: 'a', canceled_timestamp: 5 })]),
      'a',
      9,
    );
    expect(page.otaJobs[0]?.canceled_timestamp).toBe(5);
  });

  it('returns the same page when the job is not on it', () => {
    const page = pageOf([a]);
    expect(withJobCancelled(page, 'zzz', 1)).toBe(page);
  });
});

describe('withoutJob', () => {
  it('removes the archived job from both lists and lowers the total', () => {
    const page = withoutJob(pageOf([a, b], 12), 'a');
    expect(page.otaJobs.map((job) => job.ota_job_id)).toEqual(['b']);
    expect(page.ota_jobs.map((job) => job.ota_job_id)).toEqual(['b']);
    expect(page.total).toBe(11);
  });

  it('returns the same page when the job is not on it', () => {
    const page = pageOf([a]);
    expect(withoutJob(page, 'b')).toBe(page);
  });
});

describe('listShowsAnyJob', () => {
  it('is true only when one of the ids is on the page', () => {
    expect(listShowsAnyJob(pageOf([a, b]), ['x', 'b'])).toBe(true);
    expect(listShowsAnyJob(pageOf([a]), ['x'])).toBe(false);
    expect(listShowsAnyJob(undefined, ['a'])).toBe(false);
  });
});
