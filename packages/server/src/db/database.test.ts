import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SQLITE_CACHE_KIB,
  openDatabase,
  selectValueRows,
  type DatabaseHandle,
} from './database.js';

describe('SQLite with cached prepared statements', () => {
  let handle: DatabaseHandle | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await handle?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens the file in WAL mode with the larger page cache', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-db-'));
    handle = openDatabase({ dataDir: dir });
    const pragma = async (name: string) =>
      Object.values(
        (await handle!.db.executeQuery(CompiledQuery.raw(`pragma ${name}`))).rows[0] as object,
      )[0] as unknown;
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('cache_size')).toBe(-SQLITE_CACHE_KIB);
  });

  it('answers every query right when statements are reused, evicted and the schema changes', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-db-'));
    handle = openDatabase({ dataDir: dir });
    const db = handle.db;
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (let i = 0; i < 20; i += 1)
      await sql`insert into t (id, name) values (${i}, ${`n${i}`})`.execute(db);
    // The same SQL with other parameters reuses one statement.
    for (let i = 0; i < 20; i += 1) {
      const { rows } = await sql<{ name: string }>`select name from t where id = ${i}`.execute(db);
      expect(rows).toEqual([{ name: `n${i}` }]);
    }
    // More distinct SQL texts than the cache holds: older ones are evicted and prepared again.
    for (let i = 0; i < 600; i += 1) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from t where id < ${sql.lit(i % 25)}`.execute(db);
      expect(rows[0]?.n).toBe(Math.min(i % 25, 20));
    }
    // A cached `select *` sees a column added later.
    const before = await sql<Record<string, unknown>>`select * from t where id = 1`.execute(db);
    expect(Object.keys(before.rows[0] ?? {})).toEqual(['id', 'name']);
    await sql`alter table t add column city text`.execute(db);
    const after = await sql<Record<string, unknown>>`select * from t where id = 1`.execute(db);
    expect(after.rows[0]).toEqual({ id: 1, name: 'n1', city: null });
    // Writes through a cached statement report their changes.
    const update = await sql`update t set city = ${'Pune'} where id < ${5}`.execute(db);
    expect(Number(update.numAffectedRows)).toBe(5);
  });

  it('returns value rows as arrays, also in a transaction, and other reads as objects', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-db-'));
    handle = openDatabase({ dataDir: dir });
    const db = handle.db;
    await sql`create table t (id integer primary key, name text not null, note text)`.execute(db);
    await sql`insert into t (id, name, note) values (1, 'a', null), (2, 'b', 'x')`.execute(db);
    const text = 'select id, name, note from t where id >= ? order by id';
    const columns = ['id', 'name', 'note'];
    expect(await selectValueRows(db, text, [1], columns)).toEqual([
      [1, 'a', null],
      [2, 'b', 'x'],
    ]);
    // The same SQL without the mark is another statement and still answers with objects.
    const { rows } = await db.executeQuery(CompiledQuery.raw(text, [2]));
    expect(rows).toEqual([{ id: 2, name: 'b', note: 'x' }]);
    // Inside a transaction the read sees the transaction's own writes.
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (id, name, note) values (3, 'c', 'y')`.execute(trx);
      expect(await selectValueRows(trx, text, [3], columns)).toEqual([[3, 'c', 'y']]);
    });
  });
});
