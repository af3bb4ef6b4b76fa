/**
 * Errors of the machine's storage, from the file system, SQLite or PostgreSQL, told apart from
 * bugs so that the caller hears what happened (QUALITY R2): a full disk is a 507, an I/O error
 * a 503, and neither is a 500 "Internal server error".
 */
export type StorageFailure = 'full' | 'io';

const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
const IO_ERRNO = new Set(['EIO', 'EROFS']);
/** PostgreSQL SQLSTATEs: 53100 disk_full, 58030 io_error. */
const PG_FULL = '53100';
const PG_IO = '58030';

function classifyOne(error: unknown): StorageFailure | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return null;
  if (FULL_ERRNO.has(code) || code === 'SQLITE_FULL' || code === PG_FULL) return 'full';
  if (IO_ERRNO.has(code) || code.startsWith('SQLITE_IOERR') || code === PG_IO) return 'io';
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
