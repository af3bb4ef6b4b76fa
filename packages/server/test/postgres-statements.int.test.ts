import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, selectValueRows, type DatabaseHandle } from '../src/db/database.js';
import { GENERIC_PLAN_MARK } from '../src/db/postgres-statements.js';
import { runFixedQuery } from '../src/db/raw-query.js';
import { DIALECTS, openTestDatabase } from './helpers/test-server.js';

const LIST = 'select id, label from fixed_t where id > ? order by id';

describe.each(DIALECTS)('fixed statements on %s', (dialect) => {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, cleanup } = await openTestDatabase(dialect));
    await sql`create table fixed_t (id integer primary key, label text not null)`.execute(
      handle.db,
    );
    await sql`insert into fixed_t (id, label) values (1, 'a'), (2, 'b, "quoted"'), (3, 'Ünïcode')`.execute(
      handle.db,
    );
  });
  afterAll(async () => {
    await cleanup();
  });

  it('return value rows in select order, the same on every run of a connection', async () => {
    await handle.db.connection().execute(async (connection) => {
      for (let run = 0; run < 3; run += 1) {
        const rows = await selectValueRows<[number, string]>(
          connection,
          LIST,
          [1],
          ['id', 'label'],
        );
        expect(rows).toEqual([
          [2, 'b, "quoted"'],
          [3, 'Ünïcode'],
        ]);
      }
      const none = await selectValueRows<[number, string]>(connection, LIST, [3], ['id', 'label']);
      expect(none).toEqual([]);
    });
  });

  it('keep the error code of a failed statement, and the connection keeps working', async () => {
    await handle.db.connection().execute(async (connection) => {
      const insert = 'insert into fixed_t (id, label) values (?, ?)';
      const failure = await runFixedQuery(connection, insert, [1, 'again']).catch(
        (e: unknown) => e,
      );
      expect(isUniqueViolation(failure)).toBe(true);
      await runFixedQuery(connection, insert, [4, 'd']);
      const { rows } = await runFixedQuery<{ label: string }>(
        connection,
        'select label from fixed_t where id = ?',
        [4],
      );
      expect(rows).toEqual([{ label: 'd' }]);
    });
  });

  // PostgreSQL only (SQLite's own statement cache is covered in database.test.ts).
  if (dialect !== 'postgres') return;
  it('are prepared once per PostgreSQL connection under a name; other queries are not', async () => {
    await handle.db.connection().execute(async (connection) => {
      const prepared = async () =>
        (
          await sql<{ name: string; statement: string }>`
              select name, statement from pg_prepared_statements order by name`.execute(connection)
        ).rows;
      await selectValueRows(connection, LIST, [0], ['id', 'label']);
      const first = await prepared();
      const list = first.filter((row) => row.statement.includes('from fixed_t where id > $1'));
      expect(list).toHaveLength(1);
      expect(list[0]!.name).toMatch(/^fleetdeck_\d+$/);
      await selectValueRows(connection, LIST, [2], ['id', 'label']);
      await sql`select label from fixed_t where id = ${2}`.execute(connection);
      const second = await prepared();
      expect(second).toEqual(first);
    });
  });

  it('run a marked statement with generic plans and the rest with PostgreSQL’s choice, also after a rollback (ADR 33)', async () => {
    await handle.db.connection().execute(async (connection) => {
      const mode = async () =>
        (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(connection)).rows[0]!
          .plan_cache_mode;
      const usage = async (fragment: string) =>
        (
          await sql<{ generic_plans: number; custom_plans: number }>`
            select generic_plans, custom_plans from pg_prepared_statements
            where statement like ${`%${fragment}%`}`.execute(connection)
        ).rows.map((row) => [Number(row.generic_plans), Number(row.custom_plans)]);
      const marked = `${GENERIC_PLAN_MARK}select id, label from fixed_t where id >= ? order by id`;
      const plain = 'select id, label from fixed_t where id < ? order by id';
      for (let run = 0; run < 3; run += 1) {
        await selectValueRows(connection, marked, [run], ['id', 'label']);
        expect(await mode()).toBe('force_generic_plan');
        await selectValueRows(connection, plain, [run], ['id', 'label']);
        expect(await mode()).toBe('auto');
      }
      // Three runs each: the marked one planned once for all values, the plain one per value
      // (PostgreSQL plans the first five runs of a statement for their values).
      expect(await usage('where id >= $1')).toEqual([[3, 0]]);
      expect(await usage('where id < $1')).toEqual([[0, 3]]);

      // A SET inside a transaction that rolls back is undone: the next marked statement sets
      // the mode again instead of trusting what it last set.
      await selectValueRows(connection, plain, [1], ['id', 'label']);
      await sql`begin`.execute(connection);
      await selectValueRows(connection, marked, [1], ['id', 'label']);
      expect(await mode()).toBe('force_generic_plan');
      await sql`rollback`.execute(connection);
      expect(await mode()).toBe('auto');
      await selectValueRows(connection, marked, [1], ['id', 'label']);
      expect(await mode()).toBe('force_generic_plan');
    });
  });

  it('keeps its PostgreSQL connections open through a quiet spell (pg closes idle ones after 10 s)', async () => {
    const backends = async () =>
      Number(
        (
          await sql<{ n: number }>`
            select count(*) as n from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`.execute(handle.db)
        ).rows[0]!.n,
      );
    // Ten queries at once take ten connections.
    await Promise.all(
      Array.from({ length: 10 }, () => sql`select pg_sleep(0.2)`.execute(handle.db)),
    );
    const busy = await backends();
    expect(busy).toBeGreaterThanOrEqual(9);
    await new Promise((resolve) => setTimeout(resolve, 11_500));
    expect(await backends()).toBe(busy);
  }, 20_000);
});
