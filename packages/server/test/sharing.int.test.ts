import { SHARING_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  claimNode,
  createEndUser,
  registerNodes,
  shareAndAccept,
  type EndUser,
} from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

interface SharingRequestView {
  request_id: string;
  request_status: string;
  node_ids: string[];
  user_name: string;
  primary_user_name: string;
}

describe.each(DIALECTS)('node and group sharing on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let alice: EndUser;
  let bob: EndUser;
  let carol: EndUser;
  let call: ReturnType<typeof caller>;

  const requestsOf = async (user: EndUser, query = '') => {
    const response = await call('GET', `/v1/user/nodes/sharing/requests${query}`, user.token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ sharing_requests: SharingRequestView[] }>().sharing_requests;
  };
  const sharingOf = async (user: EndUser, query = '') => {
    const response = await call('GET', `/v1/user/nodes/sharing${query}`, user.token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      node_sharing: Array<{ node_id: string; users: { primary: string[]; secondary?: string[] } }>;
    }>().node_sharing;
  };

  beforeAll(async () => {
    server = await createTestServer(dialect);
    call = caller(server);
    admin = (await apiLogin(server.app)).accesstoken;
    alice = await createEndUser(server, admin, 'alice@fleetdeck.test');
    bob = await createEndUser(server, admin, 'bob@fleetdeck.test');
    carol = await createEndUser(server, admin, 'carol@fleetdeck.test');
    await registerNodes(server, admin, ['SHARE1', 'SHARE2', 'SHARE3']);
    await claimNode(server, alice, 'SHARE1');
    await claimNode(server, alice, 'SHARE2');
    await claimNode(server, carol, 'SHARE3');
  });

  afterAll(async () => {
    await server.close();
  });

  it('lets only the primary user share, and names no account to anyone else', async () => {
    const share = (user: EndUser, payload: object) =>
      call('PUT', '/v1/user/nodes/sharing', user.token, payload);
    // Not the primary user, another user's node, an unknown node: one answer, before any lookup
    // of the named account (so unknown names answer the same).
    for (const [user, nodes, userName] of [
      [bob, ['SHARE1'], carol.userName],
      [bob, ['SHARE1'], 'nobody@fleetdeck.test'],
      [alice, ['SHARE1', 'SHARE3'], bob.userName],
      [alice, ['SHARE1', 'NOPE'], bob.userName],
    ] as const) {
      const refused = await share(user, { nodes, user_name: userName });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        status: 'failure',
        description: SHARING_MESSAGES.notPrimary,
        error_code: 107027,
      });
    }

    // The owner learns only "no such user" — the same for an unverified sign-up.
    const unknown = await share(alice, { nodes: ['SHARE1'], user_name: 'nobody@fleetdeck.test' });
    expect(unknown.json()).toEqual({
      status: 'failure',
      description: SHARING_MESSAGES.userMissing,
      error_code: 107007,
    });
    const signUp = await server.app.inject({
      method: 'POST',
      url: '/v1/user',
      payload: { user_name: 'unverified@fleetdeck.test', password: 'Not-Yet-Verified-2031' },
    });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const unverified = await share(alice, {
      nodes: ['SHARE1'],
      user_name: 'unverified@fleetdeck.test',
    });
    expect(unverified.json()).toEqual(unknown.json());

    const self = await share(alice, { nodes: ['SHARE1'], user_name: 'ALICE@fleetdeck.test' });
    expect(self.json()).toMatchObject({ error_code: 107003 });

    expect((await share(alice, { nodes: [], user_name: bob.userName })).json()).toMatchObject({
      description: SHARING_MESSAGES.nodesMissing,
    });
    const tooMany = Array.from({ length: 101 }, (_, i) => `N${i}`);
    expect((await share(alice, { nodes: tooMany, user_name: bob.userName })).json()).toMatchObject({
      description: SHARING_MESSAGES.nodesTooMany,
    });
    const primary = await share(alice, {
      nodes: ['SHARE1'],
      user_name: bob.userName,
      primary: true,
    });
    expect(primary.json()).toMatchObject({ description: SHARING_MESSAGES.primaryRoleUnsupported });
    expect((await share(alice, { user_name: bob.userName })).statusCode).toBe(400);
    // Nothing of all this created a request.
    expect(await requestsOf(alice, '?primary_user=true')).toEqual([]);
  });

  it('makes the recipient a secondary user on accept, who then cannot share the node on', async () => {
    const shared = await call('PUT', '/v1/user/nodes/sharing', alice.token, {
      node_ids: ['SHARE1'],
      user_name: bob.userName,
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toMatchObject({
      status: 'success',
      description: SHARING_MESSAGES.requestCreated,
    });
    const requestId = shared.json<{ request_id: string }>().request_id;

    expect(await requestsOf(bob)).toEqual([
      expect.objectContaining({
        request_id: requestId,
        request_status: 'pending',
        node_ids: ['SHARE1'],
        user_name: bob.userName,
        primary_user_name: alice.userName,
      }),
    ]);
    expect(await requestsOf(carol)).toEqual([]);
    expect((await requestsOf(alice, '?primary_user=true')).map((r) => r.request_id)).toEqual([
      requestId,
    ]);
    // Until accepted, bob holds nothing.
    expect(await sharingOf(bob)).toEqual([]);

    const decide = (user: EndUser, accept: boolean, id = requestId) =>
      call('PUT', '/v1/user/nodes/sharing/requests', user.token, { request_id: id, accept });
    expect((await decide(carol, true)).json()).toMatchObject({ error_code: 107023 });
    expect((await decide(alice, true)).json()).toMatchObject({ error_code: 107023 });
    expect((await decide(bob, true, 'no-such-request')).json()).toMatchObject({
      error_code: 107023,
    });
    const accepted = await decide(bob, true);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await decide(bob, false)).json()).toMatchObject({ error_code: 107023 });

    // The shared node is among bob's nodes (GET /v1/user/nodes), not among carol's.
    const nodesOf = async (user: EndUser) =>
      (await call('GET', '/v1/user/nodes', user.token)).json<{ nodes: string[]; total: number }>();
    expect(await nodesOf(bob)).toMatchObject({ nodes: ['SHARE1'], total: 1 });
    expect((await nodesOf(carol)).nodes).not.toContain('SHARE1');
    expect((await nodesOf(alice)).nodes).toContain('SHARE1');

    // A secondary user sees the primary user only; the primary user sees the secondary users.
    expect(await sharingOf(bob)).toEqual([
      { node_id: 'SHARE1', users: { primary: [alice.userName] } },
    ]);
    expect(await sharingOf(alice, '?node_id=SHARE1')).toEqual([
      { node_id: 'SHARE1', users: { primary: [alice.userName], secondary: [bob.userName] } },
    ]);
    const stranger = await call('GET', '/v1/user/nodes/sharing?node_id=SHARE1', carol.token);
    expect(stranger.json()).toMatchObject({ error_code: 100010 });

    // Secondary users cannot share, nor remove others.
    const reshare = await call('PUT', '/v1/user/nodes/sharing', bob.token, {
      nodes: ['SHARE1'],
      user_name: carol.userName,
    });
    expect(reshare.json()).toMatchObject({ error_code: 107027 });
    const evict = await call(
      'DELETE',
      `/v1/user/nodes/sharing?nodes=SHARE1&user_name=${alice.userName}`,
      bob.token,
    );
    expect(evict.json()).toMatchObject({ error_code: 107027 });

    // Sharing again what bob holds needs no second acceptance.
    const again = await call('PUT', '/v1/user/nodes/sharing', alice.token, {
      nodes: ['SHARE1'],
      user_name: bob.userName,
    });
    expect(again.json()).toMatchObject({ description: SHARING_MESSAGES.alreadyShared });
    expect(await requestsOf(bob)).toEqual([]);
  });

  it('grants nothing on decline or after the sender withdrew the request', async () => {
    const toCarol = await call('PUT', '/v1/user/nodes/sharing', alice.token, {
      nodes: ['SHARE2'],
      user_name: carol.userName,
    });
    const carolRequest = toCarol.json<{ request_id: string }>().request_id;
    const declined = await call('PUT', '/v1/user/nodes/sharing/requests', carol.token, {
      request_id: carolRequest,
      accept: false,
    });
    expect(declined.json()).toMatchObject({ description: SHARING_MESSAGES.declined });
    expect((await sharingOf(carol)).map((n) => n.node_id)).toEqual(['SHARE3']);
    expect(await requestsOf(carol)).toEqual([]);
    expect(
      (await requestsOf(alice, `?primary_user=true&request_id=${carolRequest}`)).map(
        (r) => r.request_status,
      ),
    ).toEqual(['declined']);

    const toBob = await call('PUT', '/v1/user/nodes/sharing', alice.token, {
      nodes: ['SHARE2'],
      user_name: bob.userName,
    });
    const bobRequest = toBob.json<{ request_id: string }>().request_id;
    const url = `/v1/user/nodes/sharing/requests?request_id=${bobRequest}`;
    expect((await call('DELETE', url, bob.token)).json()).toMatchObject({ error_code: 107026 });
    expect((await call('DELETE', url, alice.token)).statusCode).toBe(200);
    expect((await call('DELETE', url, alice.token)).statusCode).toBe(404);
    const late = await call('PUT', '/v1/user/nodes/sharing/requests', bob.token, {
      request_id: bobRequest,
      accept: true,
    });
    expect(late.json()).toMatchObject({ error_code: 107023 });
    expect((await sharingOf(bob)).map((n) => n.node_id)).toEqual(['SHARE1']);
  });

  it('pages the sent requests newest first', async () => {
    const page = await requestsOf(alice, '?primary_user=true&num_records=1');
    expect(page).toHaveLength(1);
    const first = await call(
      'GET',
      '/v1/user/nodes/sharing/requests?primary_user=true&num_records=1',
      alice.token,
    );
    const next = first.json<{ next_request_id?: string }>().next_request_id;
    expect(next).toBeDefined();
    const all = await requestsOf(alice, '?primary_user=true');
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all[1]?.request_id).toBe(next);
    expect(
      (await requestsOf(alice, `?primary_user=true&start_request_id=${next}`))[0]?.request_id,
    ).toBe(next);
  });

  it('ends a share on unshare, and when the node changes hands', async () => {
    const unshare = (user: EndUser, query: string) =>
      call('DELETE', `/v1/user/nodes/sharing?${query}`, user.token);
    expect((await unshare(alice, `nodes=SHARE1&user_name=${alice.userName}`)).json()).toMatchObject(
      { error_code: 107003 },
    );
    expect(
      (await unshare(alice, 'nodes=SHARE1&user_name=nobody@fleetdeck.test')).json(),
    ).toMatchObject({
      error_code: 107007,
    });
    expect((await unshare(alice, `nodes=SHARE1&user_name=${bob.userName}`)).statusCode).toBe(200);
    expect(await sharingOf(bob)).toEqual([]);
    expect((await unshare(alice, `nodes=SHARE1&user_name=${bob.userName}`)).json()).toMatchObject({
      error_code: 107011,
    });

    // Shared again, then alice releases the node and carol claims it: bob's share is void.
    await shareAndAccept(server, alice, bob, ['SHARE1']);
    expect((await sharingOf(bob)).map((n) => n.node_id)).toEqual(['SHARE1']);
    const released = await call('PUT', '/v1/user/nodes/mapping', alice.token, {
      node_id: 'SHARE1',
      secret_key: 'x',
      operation: 'remove',
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(await sharingOf(bob)).toEqual([]);
    // Released: the node leaves bob's list with the share.
    const bobNodes = await call('GET', '/v1/user/nodes', bob.token);
    expect(bobNodes.json<{ nodes: string[] }>().nodes).not.toContain('SHARE1');
    await claimNode(server, carol, 'SHARE1', Date.now() + 2000);
    expect(await sharingOf(bob)).toEqual([]);
    expect((await sharingOf(carol, '?node_id=SHARE1'))[0]?.users.secondary).toEqual([]);
    // A pending request of the former owner can no longer be accepted.
    await claimNode(server, alice, 'SHARE1', Date.now() + 4000);
    // Back with alice under a new claim: the old grant does not come back with her.
    expect(await sharingOf(bob)).toEqual([]);
    const pending = await call('PUT', '/v1/user/nodes/sharing', alice.token, {
      nodes: ['SHARE1'],
      user_name: bob.userName,
    });
    const requestId = pending.json<{ request_id: string }>().request_id;
    await claimNode(server, carol, 'SHARE1', Date.now() + 6000);
    const stale = await call('PUT', '/v1/user/nodes/sharing/requests', bob.token, {
      request_id: requestId,
      accept: true,
    });
    expect(stale.json()).toMatchObject({
      error_code: 107027,
      description: SHARING_MESSAGES.requestStale,
    });
    expect(await sharingOf(bob)).toEqual([]);
  });

  it('lets admins offer device groups to a user, who accepts, leaves or is removed', async () => {
    const group = await call('POST', '/v1/admin/node_group', admin, {
      group_name: 'Pune Office',
      nodes: ['SHARE2'],
    });
    expect(group.statusCode, group.body).toBe(200);
    const groupId = group.json<{ group_id: string }>().group_id;
    const share = (payload: object, token = admin) =>
      call('PUT', '/v1/admin/node_group/sharing', token, payload);

    expect(
      (await share({ groups: [groupId], user_name: bob.userName }, bob.token)).statusCode,
    ).toBe(403);
    expect((await share({ groups: ['FFFF-FFFF'], user_name: bob.userName })).json()).toMatchObject({
      error_code: 108016,
    });
    expect((await share({ groups: ['0000-0000'], user_name: bob.userName })).json()).toMatchObject({
      error_code: 108038,
    });
    expect(
      (await share({ groups: [groupId], user_name: 'nobody@fleetdeck.test' })).json(),
    ).toMatchObject({ error_code: 108050 });
    expect(
      (await share({ groups: [groupId], user_name: 'root@fleetdeck.test' })).json(),
    ).toMatchObject({ error_code: 108046 });
    expect((await share({ groups: [], user_name: bob.userName })).statusCode).toBe(400);

    const offered = await share({ groups: [groupId, groupId], user_name: bob.userName });
    expect(offered.json()).toMatchObject({ description: SHARING_MESSAGES.groupRequestCreated });
    const requestId = offered.json<{ request_id: string }>().request_id;
    const requests = await call('GET', '/v1/user/node_group/sharing/requests', bob.token);
    expect(requests.json()).toEqual({
      sharing_requests: [
        expect.objectContaining({
          request_id: requestId,
          request_status: 'pending',
          group_ids: [groupId],
          group_names: ['Pune Office'],
          user_name: bob.userName,
          primary_user_name: 'root@fleetdeck.test',
        }),
      ],
    });
    // A node request id is not a group request id, and the other way round.
    const crossed = await call('PUT', '/v1/user/nodes/sharing/requests', bob.token, {
      request_id: requestId,
      accept: true,
    });
    expect(crossed.json()).toMatchObject({ error_code: 107023 });
    const wrongUser = await call('PUT', '/v1/user/node_group/sharing/requests', carol.token, {
      request_id: requestId,
      accept: true,
    });
    expect(wrongUser.json()).toMatchObject({ error_code: 108034 });
    const accepted = await call('PUT', '/v1/user/node_group/sharing/requests', bob.token, {
      request_id: requestId,
      accept: true,
    });
    expect(accepted.json()).toMatchObject({ description: SHARING_MESSAGES.groupAccepted });
    const mine = async (user: EndUser) =>
      (await call('GET', '/v1/user/node_group/sharing', user.token)).json<{
        groups: Array<{ group_id: string; group_name: string }>;
      }>().groups;
    expect(await mine(bob)).toEqual([{ group_id: groupId, group_name: 'Pune Office' }]);
    expect(await mine(carol)).toEqual([]);
    // Group sharing gives no control of the nodes.
    expect(await sharingOf(bob)).toEqual([]);

    expect((await share({ groups: [groupId], user_name: bob.userName })).json()).toMatchObject({
      description: SHARING_MESSAGES.groupAlreadyShared,
    });
    const leave = () => call('DELETE', `/v1/user/node_group/sharing?groups=${groupId}`, bob.token);
    expect((await leave()).statusCode).toBe(200);
    expect(await mine(bob)).toEqual([]);
    expect((await leave()).json()).toMatchObject({ error_code: 108043 });

    const again = await share({ groups: [groupId], user_name: bob.userName });
    await call('PUT', '/v1/user/node_group/sharing/requests', bob.token, {
      request_id: again.json<{ request_id: string }>().request_id,
      accept: true,
    });
    expect(await mine(bob)).toHaveLength(1);
    const removed = await call(
      'DELETE',
      `/v1/admin/node_group/sharing?groups=${groupId}&user_name=${bob.userName}`,
      admin,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await mine(bob)).toEqual([]);
    expect(
      (
        await call(
          'DELETE',
          `/v1/admin/node_group/sharing?groups=${groupId}&user_name=${bob.userName}`,
          bob.token,
        )
      ).statusCode,
    ).toBe(403);
  });
});
