/**
 * Errors of the machine's storage, from the file system, SQLite or PostgreSQL, told apart from
 * bugs so that the caller hears what happened (QUALITY R2): a full disk is a 507, an I/O error
 * or a database that cannot be reached a 503, and neither is a 500 "Internal server error".
 */
export type StorageFailure = 'full' | 'io';

const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
const IO_ERRNO = new Set(['EIO', 'EROFS']);
/** PostgreSQL SQLSTATEs: 53100 disk_full, 58030 io_error. */
const PG_FULL = '53100';
const PG_IO = '58030';
/**
 * The database cannot be reached: the connection was refused (PostgreSQL is down or restarting),
 * or PostgreSQL ended or would not take it (SQLSTATE class 08 connection_exception; 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), or it (or the object store)
 * did not answer in time (ETIMEDOUT). Nothing was written.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', '57P01', '57P02', '57P03']);
const PG_CONNECTION_CLASS = /^08[0-9A-Z]{3}$/;

function classifyOne(error: unknown): StorageFailure | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return null;
  if (FULL_ERRNO.has(code) || code === 'SQLITE_FULL' || code === PG_FULL) return 'full';
  if (IO_ERRNO.has(code) || code.startsWith('SQLITE_IOERR') || code === PG_IO) return 'io';
  if (UNREACHABLE.has(code) || PG_CONNECTION_CLASS.test(code)) return 'io';
  return null;
}

/** Whether `error` (or an error it wraps, through `cause`) is a storage failure, and which. */
export function storageFailureOf(error: unknown): StorageFailure | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const found = classifyOne(current);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
