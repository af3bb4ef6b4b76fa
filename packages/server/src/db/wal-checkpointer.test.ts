import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer.js';

const ROW_BYTES = 3000;
const walBytes = (dir: string) => fs.statSync(path.join(dir, 'fleetdeck.db-wal')).size;

async function pragma(handle: DatabaseHandle, name: string): Promise<unknown> {
  const { rows } = await handle.db.executeQuery(CompiledQuery.raw(`pragma ${name}`));
  return Object.values(rows[0] as object)[0];
}

/** One transaction that writes `rows` rows of ROW_BYTES each (about one WAL page per row). */
async function writeRows(handle: DatabaseHandle, from: number, rows: number): Promise<void> {
  await handle.db.transaction().execute(async (trx) => {
    for (let i = from; i < from + rows; i += 1)
      await sql`insert into t (id, body) values (${i}, ${String(i).padEnd(ROW_BYTES, 'x')})`.execute(
        trx,
      );
  });
}

describe('the background WAL checkpointer (ADR 20)', () => {
  let handle: DatabaseHandle | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves checkpoints to its worker: the server connection only steps in at 64 MiB', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    handle = openDatabase({ dataDir: dir });
    expect(handle.walCheckpointer).toBeDefined();
    expect(await pragma(handle, 'wal_autocheckpoint')).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
  });

  it('copies committed pages into the database file so the WAL starts over', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    handle = openDatabase({ dataDir: dir });
    await sql`create table t (id integer primary key, body text not null)`.execute(handle.db);
    // 30 transactions of ~1 MiB: without checkpoints the WAL would hold all of them (~30 MiB,
    // below the fallback of 64 MiB, so the server connection never checkpoints here).
    for (let batch = 0; batch < 30; batch += 1) {
      await writeRows(handle, batch * 300, 300);
      const result = await handle.walCheckpointer!.checkpointNow();
      expect(result.busy).toBe(0);
      expect(result.checkpointed).toBe(result.log);
    }
    // The next writer found everything checkpointed and wrote from the WAL's start again.
    expect(walBytes(dir)).toBeLessThan(4 * 2 ** 20);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(handle.db);
    expect(rows[0]?.n).toBe(9000);
  });

  it('checkpoints on its own clock while the server writes', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    handle = openDatabase({ dataDir: dir });
    await sql`create table t (id integer primary key, body text not null)`.execute(handle.db);
    const deadline = Date.now() + 10_000;
    let batch = 0;
    while (handle.walCheckpointer!.rounds < 3 && Date.now() < deadline) {
      await writeRows(handle, batch * 100, 100);
      batch += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(handle.walCheckpointer!.rounds).toBeGreaterThanOrEqual(3);
  });

  it('counts only rounds that found new frames, and stays quiet while nothing is written', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    handle = openDatabase({ dataDir: dir });
    await sql`create table t (id integer primary key, body text not null)`.execute(handle.db);
    await writeRows(handle, 0, 100);
    const deadline = Date.now() + 5_000;
    while (handle.walCheckpointer!.rounds < 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const after = handle.walCheckpointer!.rounds;
    expect(after).toBeGreaterThanOrEqual(1);
    // Half a second without writes: five rounds at the busy pace, none of them with work.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(handle.walCheckpointer!.rounds).toBe(after);
  });

  it('keeps every committed row across close and reopen, and removes the WAL on close', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    handle = openDatabase({ dataDir: dir });
    await sql`create table t (id integer primary key, body text not null)`.execute(handle.db);
    for (let batch = 0; batch < 10; batch += 1) await writeRows(handle, batch * 200, 200);
    await handle.close();
    handle = undefined;
    // The last connection to close checkpoints everything and deletes the WAL.
    expect(fs.existsSync(path.join(dir, 'fleetdeck.db-wal'))).toBe(false);
    const reopened = new SQLite(path.join(dir, 'fleetdeck.db'), { readonly: true });
    try {
      const row = reopened.prepare('select count(*) as n, max(id) as last from t').get() as {
        n: number;
        last: number;
      };
      expect(row).toEqual({ n: 2000, last: 1999 });
    } finally {
      reopened.close();
    }
  });

  it('reports a worker that cannot open its file', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    const failed = new Promise<Error>((resolve) =>
      startWalCheckpointer(path.join(dir!, 'missing.db'), resolve),
    );
    expect((await failed).message).toBe('the WAL checkpointer failed (SQLITE_CANTOPEN)');
  });

  it('refuses a checkpoint after stop', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    handle = openDatabase({ dataDir: dir });
    const checkpointer = handle.walCheckpointer!;
    await checkpointer.stop();
    await expect(checkpointer.checkpointNow()).rejects.toThrow('the WAL checkpointer is stopped');
  });
});

describe('stopping the WAL checkpointer at the end of a process', () => {
  it('keeps the process alive until the worker has closed its connection', () => {
    // A process whose last work is the stop (the server's exit after a failed start): the stop
    // must finish, or what follows it (the exit code, the message) never happens.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-wal-'));
    try {
      new SQLite(path.join(dir, 'fleetdeck.db')).close();
      const script = [
        `import { startWalCheckpointer } from ${JSON.stringify(path.join(import.meta.dirname, 'wal-checkpointer.ts'))};`,
        `const checkpointer = startWalCheckpointer(${JSON.stringify(path.join(dir, 'fleetdeck.db'))}, () => {});`,
        'await checkpointer.stop();',
        "console.log('stopped');",
        'process.exitCode = 7;',
      ].join('\n');
      const result = spawnSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { encoding: 'utf8', timeout: 20_000 },
      );
      expect(result.stdout).toContain('stopped');
      expect(result.status).toBe(7);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
