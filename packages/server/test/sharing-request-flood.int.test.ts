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

/** Every pending sharing request `user` received at `path`, following the pages. */
async function pendingRequests(
  call: ReturnType<typeof caller>,
  path: string,
  user: EndUser,
): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined;
  do {
    const response = await call(
      'GET',
      `${path}?num_records=10${next ? `&start_request_id=${next}` : ''}`,
      user.token,
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
  const pendingForBob = () => pendingRequests(call, '/v1/user/nodes/sharing/requests', bob);

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

  it('answers the same offer sent many times at once with one request', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => share(['FLOOD3', 'FLOOD4'])),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const ids = new Set(answers.map((answer) => answer.json<{ request_id: string }>().request_id));
    expect(ids.size).toBe(1);
    expect(await pendingForBob()).toEqual([...ids]);
    const [requestId] = [...ids];
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

const GROUP_NAMES = ['Flood A', 'Flood B', 'Flood C', 'Flood D', 'Flood E', 'Flood F', 'Flood G'];

// The same for device-group offers: a holder of groups.write could offer a user the same groups
// without end, or every subset of them. Offers come from admins, who may rightly offer a group to
// many users, so the cap counts the offers waiting for one user (from all admins together).
describe.each(DIALECTS)(
  'group sharing requests cannot be used to flood a user on %s',
  (dialect) => {
    let server: TestServer;
    let admin: string;
    let manager: string;
    let bob: EndUser;
    let carol: EndUser;
    let groupIds: string[];
    let call: ReturnType<typeof caller>;

    const offer = (token: string, groups: readonly string[], userName = bob.userName) =>
      call('PUT', '/v1/admin/node_group/sharing', token, { groups, user_name: userName });
    /** The `count` first non-empty subsets of the groups (7 groups give 127). */
    const groupSubsets = (count: number) => {
      const result: string[][] = [];
      for (let mask = 1; result.length < count; mask += 1)
        result.push(groupIds.filter((_group, index) => (mask >> index) & 1));
      return result;
    };
    const pendingFor = (user: EndUser) =>
      pendingRequests(call, '/v1/user/node_group/sharing/requests', user);
    const decline = async (user: EndUser, requestId: string) => {
      const answer = await call('PUT', '/v1/user/node_group/sharing/requests', user.token, {
        request_id: requestId,
        accept: false,
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };

    beforeAll(async () => {
      server = await createTestServer(dialect);
      call = caller(server);
      admin = (await apiLogin(server.app)).accesstoken;
      bob = await createEndUser(server, admin, 'group-flood-bob@fleetdeck.test');
      carol = await createEndUser(server, admin, 'group-flood-carol@fleetdeck.test');
      // A second holder of groups.write, to tell "the same offer" from "an offer by someone else".
      const managerName = 'group-flood-manager@fleetdeck.test';
      const created = await call('POST', '/v1/admin/user2', admin, {
        user_name: managerName,
        password: 'Shared-Fridge-2031',
        roles: ['service_manager_role'],
      });
      expect(created.statusCode, created.body).toBe(201);
      manager = (await apiLogin(server.app, managerName, 'Shared-Fridge-2031')).accesstoken;
      groupIds = [];
      for (const name of GROUP_NAMES) {
        const group = await call('POST', '/v1/admin/node_group', admin, { group_name: name });
        expect(group.statusCode, group.body).toBe(200);
        groupIds.push(group.json<{ group_id: string }>().group_id);
      }
    });

    afterAll(async () => {
      await server.close();
    });

    it('answers the same group offer sent many times at once with one request', async () => {
      const groups = groupIds.slice(2, 4);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => offer(admin, groups, carol.userName)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      const ids = new Set(
        answers.map((answer) => answer.json<{ request_id: string }>().request_id),
      );
      expect(ids.size).toBe(1);
      expect(await pendingFor(carol)).toEqual([...ids]);
      await decline(carol, [...ids][0] ?? '');
    });

    it('answers the same group offer again with the pending request, not a copy (ASVS 2.4.1)', async () => {
      const [first, second] = groupIds;
      if (first === undefined || second === undefined) throw new Error('groups missing');
      const offered = await offer(admin, [first, second]);
      expect(offered.statusCode, offered.body).toBe(200);
      const requestId = offered.json<{ request_id: string }>().request_id;
      for (const groups of [
        [first, second],
        [second, first],
        [second, first, second],
      ]) {
        const again = await offer(admin, groups);
        expect(again.statusCode, again.body).toBe(200);
        expect(again.json()).toMatchObject({
          description: SHARING_MESSAGES.groupRequestCreated,
          request_id: requestId,
        });
      }
      expect(await pendingFor(bob)).toEqual([requestId]);
      // Another set of groups, another admin or another user is another offer.
      const fewer = await offer(admin, [first]);
      const byManager = await offer(manager, [first, second]);
      const toCarol = await offer(admin, [first, second], carol.userName);
      const others = [fewer, byManager, toCarol].map((response) => {
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ request_id: string }>().request_id;
      });
      expect(new Set([requestId, ...others]).size).toBe(4);
      expect((await pendingFor(bob)).sort()).toEqual([requestId, others[0], others[1]].sort());
      for (const id of [requestId, others[0] ?? '', others[1] ?? '']) await decline(bob, id);
      await decline(carol, others[2] ?? '');
    });

    it('caps the group requests waiting for one user, from all admins together (ASVS 2.4.1)', async () => {
      const cap = SHARING_LIMITS.pendingGroupRequestsReceived;
      const offers = groupSubsets(cap + 1);
      const ids: string[] = [];
      for (const [index, groups] of offers.slice(0, cap).entries()) {
        const response = await offer(index % 2 === 0 ? admin : manager, groups);
        expect(response.statusCode, response.body).toBe(200);
        ids.push(response.json<{ request_id: string }>().request_id);
      }
      for (const token of [admin, manager]) {
        const refused = await offer(token, offers[cap] ?? []);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          status: 'failure',
          description: SHARING_MESSAGES.groupPendingRequestLimit,
          error_code: SHARING_ERROR_CODES.groupPendingRequestLimit,
        });
      }
      // A repeat of a waiting offer still answers that request, and the cap is the recipient's.
      const repeat = await offer(admin, offers[0] ?? []);
      expect(repeat.json()).toMatchObject({ request_id: ids[0] });
      expect((await offer(admin, offers[cap] ?? [], carol.userName)).statusCode).toBe(200);
      expect((await pendingFor(bob)).length).toBe(cap);
      // An answer frees a place.
      await decline(bob, ids[0] ?? '');
      expect((await offer(manager, offers[cap] ?? [])).statusCode).toBe(200);
    });
  },
);
