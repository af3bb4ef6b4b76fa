import { describe, expect, it } from 'vitest';
import {
  isForeignKeyViolation,
  isTransientConflict,
  transactionWithRetry,
  type TransactionStarter,
} from './transaction-retry.js';

/** A database error as pg raises it: an Error with the SQLSTATE in `code`. */
function databaseError(code: string): Error & { code: string } {
  return Object.assign(new Error(`database error ${code}`), { code });
}

/** A stand-in database whose transactions run the body directly and count how often. */
function fakeDatabase(): TransactionStarter<'trx'> & { started: number } {
  const db = {
    started: 0,
    transaction: () => ({
      execute: <T>(body: (trx: 'trx') => Promise<T>): Promise<T> => {
        db.started += 1;
        return body('trx');
      },
    }),
  };
  return db;
}

describe('transactionWithRetry', () => {
  const noWait = { sleep: () => Promise.resolve(), random: () => 0.5 };

  it('runs the body again in a new transaction after a deadlock and returns its result', async () => {
    const db = fakeDatabase();
    let calls = 0;
    const result = await transactionWithRetry(
      db,
      async (trx) => {
        calls += 1;
        if (calls < 3) throw databaseError('40P01');
        return `${trx} done`;
      },
      noWait,
    );
    expect(result).toBe('trx done');
    expect(calls).toBe(3);
    expect(db.started).toBe(3);
  });

  it('retries a serialization failure (40001) as well', async () => {
    const db = fakeDatabase();
    let calls = 0;
    await transactionWithRetry(
      db,
      async () => {
        calls += 1;
        if (calls === 1) throw databaseError('40001');
      },
      noWait,
    );
    expect(calls).toBe(2);
  });

  it('gives up after the given number of attempts and throws the last error', async () => {
    const db = fakeDatabase();
    const waits: number[] = [];
    const failure = transactionWithRetry(db, () => Promise.reject(databaseError('40P01')), {
      attempts: 3,
      baseDelayMs: 10,
      random: () => 1,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    await expect(failure).rejects.toMatchObject({ code: '40P01' });
    expect(db.started).toBe(3);
    // The wait doubles between attempts and never follows the last one.
    expect(waits).toEqual([10, 20]);
  });

  it('does not retry any other error', async () => {
    for (const error of [databaseError('23505'), databaseError('23503'), new Error('plain')]) {
      const db = fakeDatabase();
      await expect(transactionWithRetry(db, () => Promise.reject(error), noWait)).rejects.toBe(
        error,
      );
      expect(db.started).toBe(1);
    }
  });
});

describe('database error classification', () => {
  it('tells deadlocks and serialization failures from other errors', () => {
    expect(isTransientConflict(databaseError('40P01'))).toBe(true);
    expect(isTransientConflict(databaseError('40001'))).toBe(true);
    expect(isTransientConflict(databaseError('23505'))).toBe(false);
    expect(isTransientConflict(new Error('no code'))).toBe(false);
    expect(isTransientConflict(undefined)).toBe(false);
  });

  it('recognises a foreign-key violation on both dialects', () => {
    expect(isForeignKeyViolation(databaseError('23503'))).toBe(true);
    expect(isForeignKeyViolation(databaseError('SQLITE_CONSTRAINT_FOREIGNKEY'))).toBe(true);
    expect(isForeignKeyViolation(databaseError('23505'))).toBe(false);
  });
});
