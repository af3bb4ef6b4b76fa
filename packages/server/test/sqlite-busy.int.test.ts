import path from 'node:path';
import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Another process holds SQLite's write lock longer than the server's busy timeout (5 s): a
 * `stats:rebuild` on a big database, an operator's sqlite3 shell left in a transaction. A write
 * request then gets the "busy, try again" answer with Retry-After, not a 500, and nothing of it
 * is stored; once the lock is released the same request succeeds.
 */
describe('SQLite write lock held by another process', () => {
  let server: TestServer;
  let token: string;
  let other: SQLite.Database;

  beforeAll(async () => {
    server = await createTestServer('sqlite');
    token = (await apiLogin(server.app)).accesstoken;
    other = new SQLite(path.join(server.config.dataDir, 'fleetdeck.db'));
  });
  afterAll(async () => {
    if (other?.inTransaction) other.exec('ROLLBACK');
    other?.close();
    await server?.close();
  });

  const register = (nodeId: string) =>
    server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: { nodes: [{ node_id: nodeId, type: 'Refrigerator', model: 'FD-1' }] },
    });

  it('answers 503 with Retry-After while the lock is held, and stores the write once it is free', async () => {
    other.exec('BEGIN IMMEDIATE');
    let busy;
    try {
      busy = await register('BUSY-1');
    } finally {
      other.exec('ROLLBACK');
    }
    expect(busy.statusCode, busy.body).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.writeConflict,
      error_code: ERROR_CODES.writeConflict,
    });
    const stored = () =>
      server.database.db
        .selectFrom('nodes')
        .select('node_id')
        .where('node_id', '=', 'BUSY-1')
        .execute();
    expect(await stored()).toEqual([]);

    const again = await register('BUSY-1');
    expect(again.statusCode, again.body).toBe(200);
    expect(await stored()).toEqual([{ node_id: 'BUSY-1' }]);
  }, 20_000);
});
