import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';

const run = promisify(execFile);

/** What `manifest.json` of a backup says; it is written last, so its presence marks a whole backup. */
export interface BackupManifest {
  format: 1;
  created_at: string;
  dialect: 'sqlite' | 'postgres';
  /** The database file in the backup directory. */
  database: typeof SQLITE_FILE | typeof PG_DUMP_FILE;
  /** Blob files copied from `<DATA_DIR>/blobs`; null when blobs live in an S3 bucket. */
  blobs: { files: number; bytes: number } | null;
}

export interface BackupTarget {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Blobs are in an S3-compatible bucket (S3_BUCKET), not under DATA_DIR. */
  externalBlobs: boolean;
}

export const MANIFEST_FILE = 'manifest.json';
const SQLITE_FILE = 'fleetdeck.db';
const PG_DUMP_FILE = 'database.pgdump';
const BLOBS_DIR = 'blobs';
/** Uploads in progress (local blob store); never part of a backup. */
const PARTIAL_DIR = '.partial';

/** A backup or restore that cannot go ahead; the message says what to do. */
export class BackupError extends Error {}

/**
 * Copies the database and the blobs of a Fleetdeck installation into `out` (which must be new or
 * empty). Safe while the server runs: SQLite is copied with its online backup API (one
 * consistent snapshot), PostgreSQL with `pg_dump` (one transaction). Blobs are copied after the
 * database, so every blob the copied database refers to is there unless it was deleted meanwhile.
 */
export async function backup(target: BackupTarget, out: string): Promise<BackupManifest> {
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0)
    throw new BackupError(`${out} is not empty: back up into a new directory`);
  fs.mkdirSync(out, { recursive: true });
  let database: BackupManifest['database'];
  if (target.databaseUrl) {
    database = PG_DUMP_FILE;
    await tool(
      'pg_dump',
      ['--format=custom', '--no-owner', `--file=${path.join(out, PG_DUMP_FILE)}`],
      target.databaseUrl,
    );
  } else {
    database = SQLITE_FILE;
    const file = path.join(target.dataDir, SQLITE_FILE);
    if (!fs.existsSync(file)) throw new BackupError(`No database at ${file}: nothing to back up`);
    const source = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(path.join(out, SQLITE_FILE));
    } finally {
      source.close();
    }
  }
  const blobs = target.externalBlobs
    ? null
    : copyBlobs(path.join(target.dataDir, BLOBS_DIR), path.join(out, BLOBS_DIR));
  const manifest: BackupManifest = {
    format: 1,
    created_at: new Date().toISOString(),
    dialect: target.databaseUrl ? 'postgres' : 'sqlite',
    database,
    blobs,
  };
  fs.writeFileSync(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Puts a backup made by `backup` back: into an installation without data, or over one with
 * `force`. The server must be stopped. The database dialect must match the backup's.
 */
export async function restore(
  target: BackupTarget,
  from: string,
  options: { force?: boolean } = {},
): Promise<BackupManifest> {
  const manifest = readManifest(from);
  const dialect = target.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.dialect !== dialect)
    throw new BackupError(
      `The backup holds a ${manifest.dialect} database, but this installation uses ${dialect}`,
    );
  if (dialect === 'postgres') {
    const tables = await publicTableCount(target.databaseUrl!);
    if (tables > 0 && !options.force)
      throw new BackupError(
        'The target database is not empty: restore into a new database, or pass --force to replace its contents',
      );
    await tool(
      'pg_restore',
      [
        '--no-owner',
        '--exit-on-error',
        '--single-transaction',
        ...(tables > 0 ? ['--clean', '--if-exists'] : []),
        path.join(from, PG_DUMP_FILE),
      ],
      target.databaseUrl!,
    );
  } else {
    fs.mkdirSync(target.dataDir, { recursive: true });
    const file = path.join(target.dataDir, SQLITE_FILE);
    if (fs.existsSync(file) && !options.force)
      throw new BackupError(
        `${file} exists: restore into an empty DATA_DIR, or pass --force to replace it`,
      );
    // The copy goes in under a temporary name and is renamed into place, after the old file's
    // write-ahead log is gone (it belongs to the file being replaced).
    const incoming = `${file}.restoring`;
    fs.copyFileSync(path.join(from, SQLITE_FILE), incoming);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
    fs.renameSync(incoming, file);
  }
  if (manifest.blobs && !target.externalBlobs) {
    const blobs = path.join(target.dataDir, BLOBS_DIR);
    if (options.force) fs.rmSync(blobs, { recursive: true, force: true });
    copyBlobs(path.join(from, BLOBS_DIR), blobs);
  }
  return manifest;
}

/** Reads and checks a backup's manifest. */
export function readManifest(from: string): BackupManifest {
  const file = path.join(from, MANIFEST_FILE);
  if (!fs.existsSync(file))
    throw new BackupError(`${from} holds no ${MANIFEST_FILE}: not a complete Fleetdeck backup`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BackupManifest>;
  if (manifest.format !== 1 || (manifest.dialect !== 'sqlite' && manifest.dialect !== 'postgres'))
    throw new BackupError(`${file} is not a Fleetdeck backup manifest this version can read`);
  if (!fs.existsSync(path.join(from, manifest.database ?? '')))
    throw new BackupError(`${from} lacks the database file its manifest names`);
  return manifest as BackupManifest;
}

/** Copies the blob files (not uploads in progress); returns how many and their bytes. */
function copyBlobs(source: string, destination: string): { files: number; bytes: number } {
  const counted = { files: 0, bytes: 0 };
  fs.mkdirSync(destination, { recursive: true });
  if (!fs.existsSync(source)) return counted;
  fs.cpSync(source, destination, {
    recursive: true,
    filter: (from) => path.basename(from) !== PARTIAL_DIR,
  });
  for (const entry of fs.readdirSync(destination, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    counted.files += 1;
    counted.bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return counted;
}

async function publicTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * Runs one of PostgreSQL's client tools against `databaseUrl`; a clear error when it is not
 * installed or fails. The password goes in the environment, not on the command line that other
 * users of the machine can read.
 */
async function tool(
  name: 'pg_dump' | 'pg_restore',
  args: string[],
  databaseUrl: string,
): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  try {
    await run(name, [...args, `--dbname=${url.toString()}`], {
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT')
      throw new BackupError(
        `${name} was not found on PATH: install PostgreSQL's client tools (e.g. apt-get install postgresql-client)`,
      );
    throw new BackupError(`${name} failed: ${(failure.stderr ?? failure.message).trim()}`);
  }
}
