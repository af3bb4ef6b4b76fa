import { SHARING_ERROR_CODES, SHARING_LIMITS, SHARING_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  claimNode,
  createEndUser,
  registerNodes,
  type EndUser,
} from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const NODES = ['FLOOD1', 'FLOOD2', 'FLOOD3', 'FLOOD4', 'FLOOD5', 'FLOOD6', 'FLOOD7'];

/** The `count` first non-empty subsets of NODES (7 nodes give 127). */
function subsets(count: number): string[][] {
  const result: string[][] = [];
  for (let mask = 1; result.length < count; mask += 1)
    result.push(NODES.filter((_node, index) => (mask >> index) & 1));
  return result;
}

// ASVS 5.0 V2.4.1 (anti-automation: no garbage-data creation or quota exhaustion by repeated
// calls). One end user could send another the same sharing request without end, filling the
// recipient's request list and the table.
describe.each(DIALECTS)('node sharing requests cannot be used to flood a user on %s', (dialect) => {
  let server: TestServer;
  let alice: EndUser;
  let bob: EndUser;
  let call: ReturnType<typeof caller>;

  const share = (nodes: readonly string[]) =>
    call('PUT', '/v1/user/nodes/sharing', alice.token, { nodes, user_name: bob.userName });
  const pendingForBob = async () => {
    const ids: string[] = [];
    let next: string | undefined;
    do {
      const response = await call(
        'GET',
        `/v1/user/nodes/sharing/requests?num_records=10${next ? `&start_request_id=${next}` : ''}`,
        bob.token,
      );
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<{
        sharing_requests: Array<{ request_id: string }>;
        next_request_id?: string;
      }>();
      ids.push(...page.sharing_requests.map((request) => request.request_id));
      next = page.next_request_id;
    } while (next);
    return ids;
  };

  beforeAll(async () => {
    server = await createTestServer(dialect);
    call = caller(server);
    const admin = (await apiLogin(server.app)).accesstoken;
    alice = await createEndUser(server, admin, 'flood-alice@fleetdeck.test');
    bob = await createEndUser(server, admin, 'flood-bob@fleetdeck.test');
    await registerNodes(server, admin, NODES);
    for (const node of NODES) await claimNode(server, alice, node);
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers the same offer again with the pending request, not a copy (ASVS 2.4.1)', async () => {
    const first = await share(['FLOOD1', 'FLOOD2']);
    expect(first.statusCode, first.body).toBe(200);
    const requestId = first.json<{ request_id: string }>().request_id;
    for (const nodes of [
      ['FLOOD1', 'FLOOD2'],
      ['FLOOD2', 'FLOOD1'],
      ['FLOOD2', 'FLOOD1', 'FLOOD2'],
    ]) {
      const again = await share(nodes);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({
        description: SHARING_MESSAGES.requestCreated,
        request_id: requestId,
      });
    }
    expect(await pendingForBob()).toEqual([requestId]);
    const withdrawn = await call(
      'DELETE',
      `/v1/user/nodes/sharing/requests?request_id=${requestId}`,
      alice.token,
    );
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
  });

  it('caps the requests one user has waiting for an answer (ASVS 2.4.1)', async () => {
    const cap = SHARING_LIMITS.pendingRequestsSent;
    const offers = subsets(cap + 1);
    const ids: string[] = [];
    for (const nodes of offers.slice(0, cap)) {
      const response = await share(nodes);
      expect(response.statusCode, response.body).toBe(200);
      ids.push(response.json<{ request_id: string }>().request_id);
    }
    const refused = await share(offers[cap] ?? []);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      status: 'failure',
      description: SHARING_MESSAGES.pendingRequestLimit,
      error_code: SHARING_ERROR_CODES.pendingRequestLimit,
    });
    expect((await pendingForBob()).length).toBe(cap);
    // An answer frees a place.
    const declined = await call('PUT', '/v1/user/nodes/sharing/requests', bob.token, {
      request_id: ids[0],
      accept: false,
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await share(offers[cap] ?? [])).statusCode).toBe(200);
  });
});
