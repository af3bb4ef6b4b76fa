import { SHARING_MESSAGES } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeOutboundPayload } from '../src/gateway/node-gateway.js';
import { createLogger } from '../src/logger.js';
import { AutomationService } from '../src/services/automations/automation.service.js';
import type { FleetActivity } from '../src/services/nodes/node-events.js';
import { ConfigReloader } from '../src/services/settings/config-reloader.js';
import {
  caller,
  claimNode,
  createEndUser,
  registerNodes,
  shareAndAccept,
  type EndUser,
} from './helpers/end-users.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

const URL = '/v1/user/node_automation';

/** Cool the living room when the bedroom gets hot. */
const coolWhenHot = (overrides: object = {}) => ({
  name: 'Cool when hot',
  node_id: 'AUTO1',
  event_type: 'node_params',
  events: [{ params: { Thermostat: { Temperature: 30 } }, check: '>' }],
  actions: [{ node_id: 'AUTO2', params: { 'Air Conditioner': { Power: true } } }],
  ...overrides,
});

describe.each(DIALECTS)('node automations on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let alice: EndUser;
  let bob: EndUser;
  let call: ReturnType<typeof caller>;
  const published: Array<{ nodeId: string; suffix: string; payload: NodeOutboundPayload }> = [];
  const triggers: Array<Extract<FleetActivity, { kind: 'node_automation_trigger' }>> = [];

  const report = async (nodeId: string, temperature: number) => {
    server.services.ingest.nodeParams(
      nodeId,
      { Thermostat: { Temperature: temperature } },
      false,
      Date.now(),
    );
    await server.services.ingest.flush();
    await server.services.automations.whenIdle();
  };

  beforeAll(async () => {
    server = await createTestServer(dialect, { env: { CONFIG_POLL_SECONDS: '0' } });
    call = caller(server);
    admin = (await apiLogin(server.app)).accesstoken;
    alice = await createEndUser(server, admin, 'alice.auto@fleetdeck.test');
    bob = await createEndUser(server, admin, 'bob.auto@fleetdeck.test');
    await registerNodes(server, admin, ['AUTO1', 'AUTO2', 'AUTO3', 'AUTO4']);
    await claimNode(server, alice, 'AUTO1');
    await claimNode(server, alice, 'AUTO2');
    await claimNode(server, bob, 'AUTO3');
    server.services.automations.attachGateway({
      publishToNode: (nodeId, suffix, payload) => {
        published.push({ nodeId, suffix, payload });
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    });
    server.services.nodeEvents.onActivity((activity) => {
      if (activity.kind === 'node_automation_trigger') triggers.push(activity);
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('validates the definition: one param condition, valid checks, 1 to 10 actions', async () => {
    const create = (body: object) => call('POST', URL, alice.token, body);
    const description = async (body: object) => {
      const response = await create(body);
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ description: string }>().description;
    };
    expect(
      await description(
        coolWhenHot({
          events: [{ params: { Thermostat: { Temperature: 30, Humidity: 80 } }, check: '>' }],
        }),
      ),
    ).toBe(SHARING_MESSAGES.automationEvent);
    expect(
      await description(
        coolWhenHot({
          events: [
            { params: { Thermostat: { Temperature: 30 } }, check: '>' },
            { params: { Thermostat: { Humidity: 80 } }, check: '>' },
          ],
        }),
      ),
    ).toBe(SHARING_MESSAGES.automationEvent);
    expect(
      await description(
        coolWhenHot({ events: [{ params: { Thermostat: { Temperature: 30 } }, check: '~' }] }),
      ),
    ).toBe(SHARING_MESSAGES.automationCheck);
    expect(
      await description(
        coolWhenHot({ events: [{ params: { Thermostat: { On: true } }, check: '>=' }] }),
      ),
    ).toBe(SHARING_MESSAGES.automationOrderedValue);
    expect(await description(coolWhenHot({ actions: [] }))).toBe(
      SHARING_MESSAGES.automationActionsMissing,
    );
    const eleven = Array.from({ length: 11 }, () => ({
      node_id: 'AUTO2',
      params: { Light: { Power: true } },
    }));
    expect(await description(coolWhenHot({ actions: eleven }))).toBe(
      SHARING_MESSAGES.automationActionsTooMany,
    );
    expect(await description(coolWhenHot({ actions: [{ node_id: 'AUTO2', params: {} }] }))).toBe(
      SHARING_MESSAGES.automationActionParams,
    );
    expect(await description(coolWhenHot({ name: 'x'.repeat(257) }))).toBe(
      SHARING_MESSAGES.automationNameLength,
    );
    expect((await create(coolWhenHot({ event_type: 'weather' }))).statusCode).toBe(400);
    expect((await call('GET', URL, alice.token)).json()).toEqual({
      automation_trigger_actions: [],
    });
  });

  it('refuses automations on or acting on nodes the user does not hold', async () => {
    const refused = [
      await call('POST', URL, bob.token, coolWhenHot()),
      await call('POST', URL, alice.token, coolWhenHot({ node_id: 'AUTO3' })),
      await call('POST', URL, alice.token, coolWhenHot({ node_id: 'NOPE' })),
      await call(
        'POST',
        URL,
        alice.token,
        coolWhenHot({ actions: [{ node_id: 'AUTO3', params: { Light: { Power: true } } }] }),
      ),
      // Registered but nobody's node.
      await call('POST', URL, alice.token, coolWhenHot({ node_id: 'AUTO4' })),
    ];
    for (const response of refused)
      expect(response.json()).toEqual({
        status: 'failure',
        description: SHARING_MESSAGES.automationNodeNotOwned,
        error_code: 103020,
      });
    expect((await call('GET', URL, bob.token)).json()).toEqual({ automation_trigger_actions: [] });
  });

  it('creates, lists, changes and deletes only the owner’s automations', async () => {
    const created = await call('POST', URL, alice.token, coolWhenHot({ name: 'Draft' }));
    expect(created.statusCode, created.body).toBe(200);
    const automationId = created.json<{ automation_id: string }>().automation_id;
    const duplicate = await call('POST', URL, alice.token, coolWhenHot({ name: 'Draft' }));
    expect(duplicate.json()).toMatchObject({ error_code: 127010 });

    const listed = await call('GET', `${URL}?automation_id=${automationId}`, alice.token);
    expect(listed.json()).toEqual({
      automation_trigger_actions: [
        {
          automation_id: automationId,
          automation_name: 'Draft',
          enabled: true,
          node_id: 'AUTO1',
          event_type: 'node_params',
          events: [{ params: { Thermostat: { Temperature: 30 } }, check: '>' }],
          event_operator: 'and',
          actions: [{ node_id: 'AUTO2', params: { 'Air Conditioner': { Power: true } } }],
          retrigger: false,
        },
      ],
    });
    expect((await call('GET', `${URL}?node_id=AUTO2`, alice.token)).json()).toEqual({
      automation_trigger_actions: [],
    });
    const foreign = [
      await call('GET', `${URL}?automation_id=${automationId}`, bob.token),
      await call('PUT', `${URL}?automation_id=${automationId}`, bob.token, { enabled: false }),
      await call('DELETE', `${URL}?automation_id=${automationId}`, bob.token),
    ];
    for (const response of foreign) expect(response.json()).toMatchObject({ error_code: 127012 });

    const nothing = await call('PUT', `${URL}?automation_id=${automationId}`, alice.token, {});
    expect(nothing.json()).toMatchObject({ error_code: 127009 });
    const toForeignNode = await call('PUT', `${URL}?automation_id=${automationId}`, alice.token, {
      actions: [{ node_id: 'AUTO3', params: { Light: { Power: true } } }],
    });
    expect(toForeignNode.json()).toMatchObject({ error_code: 103020 });
    const changed = await call('PUT', `${URL}?automation_id=${automationId}`, alice.token, {
      name: 'Renamed',
      enabled: false,
      events: [{ params: { Thermostat: { Mode: 'eco' } }, check: '!=' }],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('GET', URL, alice.token)).json()).toMatchObject({
      automation_trigger_actions: [
        {
          automation_name: 'Renamed',
          enabled: false,
          events: [{ params: { Thermostat: { Mode: 'eco' } }, check: '!=' }],
          actions: [{ node_id: 'AUTO2' }],
        },
      ],
    });
    expect(
      (await call('DELETE', `${URL}?automation_id=${automationId}`, alice.token)).statusCode,
    ).toBe(200);
    expect(
      (await call('DELETE', `${URL}?automation_id=${automationId}`, alice.token)).json(),
    ).toMatchObject({ error_code: 127012 });
  });

  it('runs when its condition becomes true, not on every report, and not while disabled', async () => {
    const created = await call('POST', URL, alice.token, coolWhenHot());
    expect(created.statusCode, created.body).toBe(200);
    const automationId = created.json<{ automation_id: string }>().automation_id;
    // Only nodes with an enabled automation are looked at by the ingest.
    expect(server.services.automations.watches('AUTO1')).toBe(true);
    expect(server.services.automations.watches('AUTO2')).toBe(false);
    published.length = 0;
    triggers.length = 0;

    await report('AUTO1', 25);
    expect(published).toEqual([]);
    await report('AUTO1', 31);
    expect(published).toEqual([
      {
        nodeId: 'AUTO2',
        suffix: 'params/remote',
        payload: { 'Air Conditioner': { Power: true } },
      },
    ]);
    expect(triggers).toEqual([
      {
        kind: 'node_automation_trigger',
        node_id: 'AUTO1',
        user_id: alice.userId,
        automation_id: automationId,
        automation_name: 'Cool when hot',
      },
    ]);
    // Still hot: no second run. Cooler, then hot again: a second run.
    await report('AUTO1', 33);
    expect(published).toHaveLength(1);
    await report('AUTO1', 20);
    await report('AUTO1', 35);
    expect(published).toHaveLength(2);
    // Another node's params do not run it.
    await report('AUTO2', 40);
    expect(published).toHaveLength(2);

    const disabled = await call('PUT', `${URL}?automation_id=${automationId}`, alice.token, {
      enabled: false,
    });
    expect(disabled.statusCode).toBe(200);
    expect(server.services.automations.watches('AUTO1')).toBe(false);
    await report('AUTO1', 20);
    await report('AUTO1', 36);
    expect(published).toHaveLength(2);

    // retrigger: every hot report runs it.
    await call('PUT', `${URL}?automation_id=${automationId}`, alice.token, {
      enabled: true,
      retrigger: true,
    });
    await report('AUTO1', 37);
    await report('AUTO1', 38);
    expect(published).toHaveLength(4);
    expect(triggers).toHaveLength(4);
    await call('DELETE', `${URL}?automation_id=${automationId}`, alice.token);
    await report('AUTO1', 20);
    await report('AUTO1', 39);
    expect(published).toHaveLength(4);
  });

  it('lets a secondary user automate a shared node until the share ends', async () => {
    const onShared = coolWhenHot({
      name: 'Bob cools',
      node_id: 'AUTO2',
      actions: [{ node_id: 'AUTO2', params: { 'Air Conditioner': { Power: true } } }],
    });
    expect((await call('POST', URL, bob.token, onShared)).json()).toMatchObject({
      error_code: 103020,
    });
    await shareAndAccept(server, alice, bob, ['AUTO2']);
    const created = await call('POST', URL, bob.token, onShared);
    expect(created.statusCode, created.body).toBe(200);
    // Bob may not act on alice's other node through it.
    const widened = await call(
      'PUT',
      `${URL}?automation_id=${created.json<{ automation_id: string }>().automation_id}`,
      bob.token,
      { actions: [{ node_id: 'AUTO1', params: { Light: { Power: true } } }] },
    );
    expect(widened.json()).toMatchObject({ error_code: 103020 });

    published.length = 0;
    triggers.length = 0;
    await report('AUTO2', 20);
    await report('AUTO2', 31);
    expect(triggers.map((t) => t.user_id)).toEqual([bob.userId]);
    expect(published.map((p) => p.nodeId)).toEqual(['AUTO2']);

    // Unsharing removes bob's automations on the node.
    const unshared = await call(
      'DELETE',
      `/v1/user/nodes/sharing?nodes=AUTO2&user_name=${bob.userName}`,
      alice.token,
    );
    expect(unshared.statusCode, unshared.body).toBe(200);
    expect((await call('GET', URL, bob.token)).json()).toEqual({ automation_trigger_actions: [] });
    expect(server.services.automations.watches('AUTO2')).toBe(false);
  });

  it('keeps an automation inert once its owner released the node', async () => {
    const created = await call('POST', URL, bob.token, {
      ...coolWhenHot({ name: 'Own node', node_id: 'AUTO3' }),
      actions: [{ node_id: 'AUTO3', params: { Fan: { Speed: 3 } } }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const released = await call('PUT', '/v1/user/nodes/mapping', bob.token, {
      node_id: 'AUTO3',
      secret_key: 'x',
      operation: 'remove',
    });
    expect(released.statusCode).toBe(200);
    published.length = 0;
    triggers.length = 0;
    await report('AUTO3', 20);
    await report('AUTO3', 31);
    expect(triggers).toEqual([]);
    expect(published).toEqual([]);
  });

  it('tells other instances of a change through the configuration generation', async () => {
    const db = server.database.db;
    const reloader = new ConfigReloader(db, createLogger('silent'), 0);
    const other = new AutomationService(db, reloader, createLogger('silent'));
    await reloader.start();
    expect(other.watches('AUTO1')).toBe(false);
    const created = await call('POST', URL, alice.token, coolWhenHot({ name: 'Elsewhere' }));
    expect(created.statusCode).toBe(200);
    expect(other.watches('AUTO1')).toBe(false);
    expect(await reloader.poll()).toBe(true);
    expect(other.watches('AUTO1')).toBe(true);
    await call(
      'DELETE',
      `${URL}?automation_id=${created.json<{ automation_id: string }>().automation_id}`,
      alice.token,
    );
    expect(await reloader.poll()).toBe(true);
    expect(other.watches('AUTO1')).toBe(false);
    await other.stop();
  });
});
