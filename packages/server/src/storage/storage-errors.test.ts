import { describe, expect, it } from 'vitest';
import { storageFailureOf } from './storage-errors.js';

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('storageFailureOf', () => {
  it('tells a full disk from the file system, SQLite and PostgreSQL', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100'])
      expect(storageFailureOf(withCode(code))).toBe('full');
  });

  it('tells an I/O failure', () => {
    for (const code of ['EIO', 'EROFS', 'SQLITE_IOERR', 'SQLITE_IOERR_FSYNC', '58030'])
      expect(storageFailureOf(withCode(code))).toBe('io');
  });

  it('tells a database that cannot be reached (refused, ended, starting up) as an I/O failure', () => {
    for (const code of [
      'ECONNREFUSED',
      'ETIMEDOUT',
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08001',
      '08P01',
    ])
      expect(storageFailureOf(withCode(code)), code).toBe('io');
  });

  it('finds it behind a wrapping error', () => {
    const wrapped = new Error('upload failed', { cause: withCode('ENOSPC') });
    expect(storageFailureOf(new Error('outer', { cause: wrapped }))).toBe('full');
  });

  it('leaves every other error alone', () => {
    for (const error of [
      withCode('SQLITE_CONSTRAINT_UNIQUE'),
      withCode('23505'),
      withCode('ECONNRESET'),
      new Error('plain'),
      'text',
      null,
      { code: 28 },
    ])
      expect(storageFailureOf(error)).toBeNull();
  });
});
