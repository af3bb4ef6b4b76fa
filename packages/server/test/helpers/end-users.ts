import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { apiLogin, type TestServer } from './test-server.js';

const PASSWORD = 'Shared-Fridge-2031';

/** An end user (role `user`) created by the admin, signed in as an API client. */
export interface EndUser {
  userId: string;
  userName: string;
  token: string;
}

/** A caller of the API with one user's token. */
export function caller(server: TestServer) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });
}

/** Creates and signs in an end user. */
export async function createEndUser(
  server: TestServer,
  adminToken: string,
  userName: string,
): Promise<EndUser> {
  const created = await caller(server)('POST', '/v1/admin/user2', adminToken, {
    user_name: userName,
    password: PASSWORD,
    roles: ['user'],
  });
  expect(created.statusCode, created.body).toBe(201);
  const { accesstoken } = await apiLogin(server.app, userName, PASSWORD);
  return { userId: created.json<{ user_id: string }>().user_id, userName, token: accesstoken };
}

/** Registers nodes (admin). */
export async function registerNodes(
  server: TestServer,
  adminToken: string,
  nodeIds: readonly string[],
): Promise<void> {
  const response = await caller(server)('POST', '/v1/admin/node_ids', adminToken, {
    nodes: nodeIds.map((nodeId) => ({
      node_id: nodeId,
      type: 'Air Conditioner',
      model: 'FD-AC',
      tags: ['location:Pune'],
    })),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

/** Makes `user` the primary user of a node: a mapping request the node confirms. */
export async function claimNode(
  server: TestServer,
  user: EndUser,
  nodeId: string,
  at = Date.now(),
): Promise<void> {
  const secret = `secret-${nodeId}-${at}`;
  const ask = await caller(server)('PUT', '/v1/user/nodes/mapping', user.token, {
    node_id: nodeId,
    secret_key: secret,
    operation: 'add',
  });
  expect(ask.statusCode, ask.body).toBe(200);
  server.services.ingest.nodeUserMapping(
    nodeId,
    { node_id: nodeId, user_id: user.userId, secret_key: secret },
    at,
  );
  await server.services.ingest.flush();
}

/** Shares nodes from `owner` with `recipient`, who accepts; the request id. */
export async function shareAndAccept(
  server: TestServer,
  owner: EndUser,
  recipient: EndUser,
  nodeIds: readonly string[],
): Promise<string> {
  const call = caller(server);
  const shared = await call('PUT', '/v1/user/nodes/sharing', owner.token, {
    nodes: nodeIds,
    user_name: recipient.userName,
  });
  expect(shared.statusCode, shared.body).toBe(200);
  const requestId = shared.json<{ request_id: string }>().request_id;
  const accepted = await call('PUT', '/v1/user/nodes/sharing/requests', recipient.token, {
    request_id: requestId,
    accept: true,
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return requestId;
}
