import {
  ERROR_CODES,
  MAPPING_OPEN_REQUESTS_PER_USER,
  MAPPING_REQUEST_TIMEOUT_SECONDS,
  SERVER_MESSAGES,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  claimNode,
  createEndUser,
  registerNodes,
  type EndUser,
} from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// ASVS 5.0 V2.4.1 (anti-automation: no garbage-data creation by repeated calls). Every
// PUT /v1/user/nodes/mapping stored a row that is never deleted; one end user could write them
// without end (200 in about a second against the demo).
describe.each(DIALECTS)(
  'node mapping requests cannot be used to flood the store on %s',
  (dialect) => {
    let server: TestServer;
    let mallory: EndUser;
    let call: ReturnType<typeof caller>;

    const ask = (user: EndUser, secret: string, nodeId = 'MAPFLOOD1') =>
      call('PUT', '/v1/user/nodes/mapping', user.token, {
        node_id: nodeId,
        secret_key: secret,
        operation: 'add',
      });

    beforeAll(async () => {
      server = await createTestServer(dialect);
      call = caller(server);
      const admin = (await apiLogin(server.app)).accesstoken;
      mallory = await createEndUser(server, admin, 'mapflood-mallory@fleetdeck.test');
      await registerNodes(server, admin, ['MAPFLOOD1', 'MAPFLOOD2']);
    });

    afterAll(async () => {
      await server.close();
    });

    it('caps the open mapping requests of one user (ASVS 2.4.1)', async () => {
      for (let i = 0; i < MAPPING_OPEN_REQUESTS_PER_USER; i += 1) {
        const accepted = await ask(mallory, `guess-${i}`);
        expect(accepted.statusCode, accepted.body).toBe(200);
      }
      const refused = await ask(mallory, 'one-more');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.tooManyRequests,
        error_code: ERROR_CODES.tooManyRequests,
      });
      const stored = await server.database.db
        .selectFrom('user_node_mappings')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', mallory.userId)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(MAPPING_OPEN_REQUESTS_PER_USER);
    });

    it('counts only open requests: timed-out ones free places, and other users are not held up', async () => {
      const admin = (await apiLogin(server.app)).accesstoken;
      const other = await createEndUser(server, admin, 'mapflood-other@fleetdeck.test');
      await claimNode(server, other, 'MAPFLOOD2');
      // Mallory's requests age past the timeout.
      await server.database.db
        .updateTable('user_node_mappings')
        .set({ created_at: Math.floor(Date.now() / 1000) - MAPPING_REQUEST_TIMEOUT_SECONDS - 5 })
        .where('user_id', '=', mallory.userId)
        .execute();
      expect((await ask(mallory, 'after-timeout')).statusCode).toBe(200);
    });
  },
);
