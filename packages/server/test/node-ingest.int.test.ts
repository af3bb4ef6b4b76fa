import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ERROR_CODES,
  MAPPING_REQUEST_TIMEOUT_SECONDS,
  SERVER_MESSAGES,
  type NodeInfo,
  type UserNodesList,
} from '@fleetdeck/contract';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { rebuildCounters, readStatusCounters } from '../src/repositories/node.repository.js';
import { NodeIngestService } from '../src/services/nodes/node-ingest.service.js';
import { routeNodeMessage } from '../src/gateway/node-message-router.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

describe.each(DIALECTS)('node ingest (what the gateway writes) on %s', (dialect) => {
  let server: TestServer;
  let token: string;

  const info = async (nodeId: string): Promise<NodeInfo> => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/v1/admin/nodes?node_id=${nodeId}&node_details=true`,
      headers: { authorization: token },
    });
    const body = response.json<{ node_info: NodeInfo[] }>();
    const [node] = body.node_info;
    if (!node) throw new Error(`node ${nodeId} not found`);
    return node;
  };

  /** An ingest of its own that writes only when asked or waited for (a 60 s interval). */
  const quietIngest = (db = server.database.db) =>
    new NodeIngestService(
      db,
      server.services.nodes,
      server.services.nodeEvents,
      createLogger('silent'),
      {
        flushIntervalMs: 60_000,
        durableDelayMs: 2,
      },
    );

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: ['A1', 'A2', 'A3', 'A4', 'A5'].map((node_id) => ({
          node_id,
          type: 'Air Conditioner',
          model: 'FD-AC-1',
          fw_version: '1.0.0',
          tags: ['location:Pune', `esp.serial_num:S-${node_id}`],
        })),
      },
    });
    expect(response.statusCode).toBe(200);
  });
  afterAll(async () => {
    await server.close();
  });

  it('commits what a QoS 1 acknowledgement waits for without waiting out the flush interval, in few batches', async () => {
    // A database handle that counts the transactions the ingest opens.
    let transactions = 0;
    const db = server.database.db;
    const counting = new Proxy(db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === 'transaction') transactions += 1;
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    const ingest = quietIngest(counting);
    const started = Date.now();
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 200; i += 1) {
      ingest.nodeParams('A5', { AC: { Temperature: 16 + (i % 10) } }, false, started + i);
      waits.push(ingest.whenDurable());
    }
    await Promise.all(waits);
    // Far inside the 60 s interval: durable waits are written within durableDelayMs.
    expect(Date.now() - started).toBeLessThan(5_000);
    // 200 acknowledgements in the same moment share one batch (group commit), not 200.
    expect(transactions).toBeLessThanOrEqual(2);
    expect((await info('A5')).params).toMatchObject({ AC: { Temperature: 16 + (199 % 10) } });
    await ingest.flush();
  });

  it('writes a due batch from the message path when its timer cannot run (ADR 20)', async () => {
    const ingest = quietIngest();
    // Under a flood of device messages libuv runs thousands of socket callbacks before timers get
    // a turn: here time passes and the batch's timer never runs at all.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let outcome: string;
    try {
      ingest.nodeParams('A4', { AC: { Temperature: 20 } }, false, Date.now());
      const durable = ingest.whenDurable();
      vi.setSystemTime(Date.now() + 10);
      // The next device message finds the batch overdue and has it written.
      ingest.nodeParams('A4', { AC: { Temperature: 21 } }, false, Date.now());
      outcome = await Promise.race([
        durable.then(() => 'durable'),
        sleep(5_000).then(() => 'still waiting for a timer'),
      ]);
    } finally {
      vi.useRealTimers();
    }
    expect(outcome).toBe('durable');
    expect((await info('A4')).params).toMatchObject({ AC: { Temperature: 21 } });
    await ingest.flush();
  });

  it('tells when an otafetch is answered, after what came before it is committed; other messages do not wait for it', async () => {
    const ingest = quietIngest();
    let answer: () => void = () => undefined;
    const asked: Array<{ nodeId: string; params: unknown }> = [];
    ingest.onOtaFetch(async (nodeId) => {
      // What the node sent before its question is read as committed when it is answered.
      asked.push({ nodeId, params: (await info('A3')).params });
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
    });
    ingest.nodeParams('A3', { AC: { Mode: 'before-fetch' } }, false, Date.now());
    ingest.nodeOtaFetch('A3', { node_id: 'A3', fw_version: '1.0.0' }, Date.now());
    let answered = false;
    const waited = ingest.whenAnswered().then(() => {
      answered = true;
    });
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toMatchObject({ nodeId: 'A3', params: { AC: { Mode: 'before-fetch' } } });
    // The commit is done; the answer is not.
    ingest.nodeParams('A3', { AC: { Mode: 'meanwhile' } }, false, Date.now());
    await ingest.whenDurable();
    await sleep(100);
    expect(answered).toBe(false);
    answer();
    await waited;
    expect(answered).toBe(true);
    await ingest.whenAnswered();
    await ingest.flush();
  });

  it('turns connect and disconnect into online and offline with the change time', async () => {
    const t = Date.now();
    server.services.ingest.nodeConnected('A1', 1, t);
    await server.services.ingest.flush();
    expect(await info('A1')).toMatchObject({
      node_status: 'online',
      status: { connectivity: { connected: true, timestamp: t } },
    });
    expect((await info('A1')).activation_timestamp).toBe(Math.floor(t / 1000));
    server.services.ingest.nodeDisconnected('A1', 1, t + 10);
    await server.services.ingest.flush();
    expect(await info('A1')).toMatchObject({
      node_status: 'offline',
      status: { connectivity: { connected: false, timestamp: t + 10 } },
    });
  });

  it('ignores the late disconnect of an older connection (reconnect race), within and across batches', async () => {
    const t = Date.now();
    // Same batch: new session connects, then the old session's disconnect arrives.
    server.services.ingest.nodeConnected('A2', 1, t);
    server.services.ingest.nodeConnected('A2', 2, t + 1);
    server.services.ingest.nodeDisconnected('A2', 1, t + 2);
    await server.services.ingest.flush();
    expect((await info('A2')).node_status).toBe('online');
    // Next batch: the stale disconnect arrives even later.
    server.services.ingest.nodeDisconnected('A2', 1, t + 50);
    await server.services.ingest.flush();
    expect((await info('A2')).node_status).toBe('online');
    // The current session's disconnect counts.
    server.services.ingest.nodeDisconnected('A2', 2, t + 60);
    await server.services.ingest.flush();
    expect((await info('A2')).node_status).toBe('offline');
  });

  it('stores config, replaces params on init and merges partial params', async () => {
    const t = Date.now();
    server.services.ingest.nodeConfig(
      'A3',
      {
        node_id: 'A3',
        config_version: '2020-03-20',
        info: { name: 'Hall AC', fw_version: '1.1.0', type: 'Air Conditioner', model: 'FD-AC-2' },
        devices: [],
      },
      t,
    );
    server.services.ingest.nodeParams('A3', { AC: { Power: false, Temperature: 24 } }, true, t);
    server.services.ingest.nodeParams('A3', { AC: { Power: true } }, false, t + 1);
    await server.services.ingest.flush();
    server.services.ingest.nodeParams(
      'A3',
      { AC: { Mode: 'cool' }, Time: { TZ: 'Asia/Kolkata' } },
      false,
      t + 2,
    );
    await server.services.ingest.flush();
    const node = await info('A3');
    expect(node).toMatchObject({ name: 'Hall AC', fw_version: '1.1.0', model: 'FD-AC-2' });
    expect(node.params).toEqual({
      AC: { Power: true, Temperature: 24, Mode: 'cool' },
      Time: { TZ: 'Asia/Kolkata' },
    });
    expect(node.config).toMatchObject({ info: { name: 'Hall AC' } });
    // The firmware version from config feeds the fleet filter.
    const filtered = await server.app.inject({
      method: 'GET',
      url: '/v1/admin/nodes?fw_version=1.1.0',
      headers: { authorization: token },
    });
    expect(filtered.json<{ nodes: string[] }>().nodes).toEqual(['A3']);
    // A later init replaces the whole document.
    server.services.ingest.nodeParams('A3', { AC: { Power: false } }, true, t + 3);
    await server.services.ingest.flush();
    expect((await info('A3')).params).toEqual({ AC: { Power: false } });
  });

  it('drops device messages with a NUL character and commits the rest of the batch', async () => {
    // Before, on PostgreSQL, one such config failed its whole batch, which was retried for ever:
    // no node's message became durable again.
    const logger = createLogger('silent');
    const ingest = server.services.ingest;
    const route = (nodeId: string, suffix: string, text: string) =>
      routeNodeMessage(ingest, logger, nodeId, suffix, Buffer.from(text), Date.now());
    const before = await info('A1');
    const config = {
      node_id: 'A1',
      info: { name: 'Kit\u0000chen', type: 'Air Conditioner' },
      devices: [],
    };
    expect(route('A1', 'config', JSON.stringify(config))).toBe('invalid');
    expect(route('A1', 'params/local', '{"AC": {"Mode": "a\\u0000b"}}')).toBe('invalid');
    expect(route('A1', 'params/local', '{"AC": {"a\\u0000": 1}}')).toBe('invalid');
    expect(route('A1', 'alert', '{"esp.alert.str": "\\u0000"}')).toBe('invalid');
    // The escape as text (a backslash, then u0000) is no NUL, and is kept.
    expect(route('A2', 'params/local', '{"AC": {"Note": "a\\\\u0000b"}}')).toBe('ingested');
    await ingest.flush();
    expect((await info('A2')).params).toMatchObject({ AC: { Note: 'a\\u0000b' } });
    const after = await info('A1');
    expect(after.name).toBe(before.name);
    expect(JSON.stringify(after.params ?? {})).not.toContain('\\u0000');
  });

  it('stores the largest session and time a connection message may carry', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    server.services.ingest.nodeConnected('A5', max, max);
    await server.services.ingest.flush();
    const node = await info('A5');
    expect(node.node_status).toBe('online');
    expect(node.status.connectivity.timestamp).toBe(max);
  });

  it("commits every other node of a batch when the database refuses one node's data, and drops only that", async () => {
    // Past the gateway's checks (the ingest port takes what it is given): PostgreSQL refuses a NUL
    // character in text; SQLite stores it.
    const ingest = server.services.ingest;
    const t = Date.now();
    const dropped = ingest.ingestCounters.droppedNodeBatches;
    const before = await info('A4');
    ingest.nodeConfig(
      'A4',
      { node_id: 'A4', info: { name: 'Pois\u0000on', type: 'Air Conditioner' }, devices: [] },
      t,
    );
    ingest.nodeParams('A1', { Probe: { Value: 11 } }, false, t);
    ingest.nodeParams('A2', { Probe: { Value: 22 } }, false, t);
    ingest.nodeParams('A5', { Probe: { Value: 55 } }, false, t);
    const durable = ingest.whenDurable();
    await ingest.flush();
    await durable;
    for (const [nodeId, value] of [
      ['A1', 11],
      ['A2', 22],
      ['A5', 55],
    ] as const)
      expect((await info(nodeId)).params).toMatchObject({ Probe: { Value: value } });
    if (dialect === 'postgres') {
      expect((await info('A4')).name).toBe(before.name);
      expect(ingest.ingestCounters.droppedNodeBatches).toBe(dropped + 1);
    } else {
      expect((await info('A4')).name).toBe('Pois\u0000on');
      expect(ingest.ingestCounters.droppedNodeBatches).toBe(dropped);
    }
    // The next batch of that node goes through.
    ingest.nodeParams('A4', { Probe: { Value: 44 } }, false, t + 1);
    await ingest.flush();
    expect((await info('A4')).params).toMatchObject({ Probe: { Value: 44 } });
  });

  it('keeps alerts', async () => {
    server.services.ingest.nodeAlert(
      'A4',
      { 'esp.alert.str': 'Filter needs cleaning' },
      Date.now(),
    );
    await server.services.ingest.flush();
    const rows = await server.database.db
      .selectFrom('node_alerts')
      .selectAll()
      .where('node_id', '=', 'A4')
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.payload ?? '{}')).toEqual({
      'esp.alert.str': 'Filter needs cleaning',
    });
  });

  it('never writes a committed half again when the other half of a split batch fails for another reason', async () => {
    // The batch is refused for its data (so it is split by node), the first half commits, then
    // the database goes away for the second: only the second half may be written again.
    const db = server.database.db;
    const dataError = Object.assign(new Error('refused'), { code: '23514' });
    const outage = Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
    const faults: Array<Error | null> = [dataError, null, outage];
    let transactions = 0;
    const flaky = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'transaction')
          return () => {
            const fault = faults[transactions] ?? null;
            transactions += 1;
            return fault ? { execute: () => Promise.reject(fault) } : target.transaction();
          };
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    const ingest = quietIngest(flaky);
    const text = `split-${dialect}-${Date.now()}`;
    const nodes = ['A1', 'A2', 'A3', 'A4'];
    for (const nodeId of nodes) {
      ingest.nodeAlert(nodeId, { 'esp.alert.str': text }, Date.now());
      ingest.nodeParams(nodeId, { Split: { Round: 1 } }, false, Date.now());
    }
    await ingest.whenDurable();
    // whole batch (refused), first half (committed), second half (outage), then the retry.
    expect(transactions).toBe(4);
    const rows = await db
      .selectFrom('node_alerts')
      .select(['node_id'])
      .where('payload', 'like', `%${text}%`)
      .execute();
    expect(rows.map((row) => row.node_id).sort()).toEqual(nodes);
    for (const nodeId of nodes)
      expect((await info(nodeId)).params).toMatchObject({ Split: { Round: 1 } });
  });

  it('maps a node to an end user when the node confirms the secret, and times out unconfirmed requests', async () => {
    const created = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/user2',
      headers: { authorization: token },
      payload: {
        user_name: 'homeowner@fleetdeck.test',
        password: 'Sunny-Kitchen-2031',
        roles: ['user'],
      },
    });
    expect(created.statusCode).toBe(201);
    const userId = created.json<{ user_id: string }>().user_id;
    const userToken = (await apiLogin(server.app, 'homeowner@fleetdeck.test', 'Sunny-Kitchen-2031'))
      .accesstoken;

    const ask = await server.app.inject({
      method: 'PUT',
      url: '/v1/user/nodes/mapping',
      headers: { authorization: userToken },
      payload: { node_id: 'A5', secret_key: 'provisioning-secret', operation: 'add' },
    });
    expect(ask.statusCode).toBe(200);
    const requestId = ask.json<{ request_id: string }>().request_id;
    const status = async (id: string) =>
      (
        await server.app.inject({
          method: 'GET',
          url: `/v1/user/nodes/mapping?request_id=${id}`,
          headers: { authorization: userToken },
        })
      ).json<{ request_status: string }>().request_status;
    expect(await status(requestId)).toBe('requested');

    // A wrong secret confirms nothing.
    server.services.ingest.nodeUserMapping(
      'A5',
      { node_id: 'A5', user_id: userId, secret_key: 'guess' },
      Date.now(),
    );
    await server.services.ingest.flush();
    expect(await status(requestId)).toBe('requested');

    server.services.ingest.nodeUserMapping(
      'A5',
      { node_id: 'A5', user_id: userId, secret_key: 'provisioning-secret' },
      Date.now(),
    );
    await server.services.ingest.flush();
    expect(await status(requestId)).toBe('confirmed');
    const mine = await server.app.inject({
      method: 'GET',
      url: '/v1/user/nodes?node_details=true',
      headers: { authorization: userToken },
    });
    expect(mine.json()).toMatchObject({ nodes: ['A5'], total: 1 });
    // The spec's GET /nodes answer (node_info, total, next_id), with RainMaker's node_details.
    const withDetails = mine.json<UserNodesList>();
    expect(withDetails.node_info.map((n) => n.node_id)).toEqual(['A5']);
    expect(withDetails.node_details).toEqual(withDetails.node_info);
    const plain = await server.app.inject({
      method: 'GET',
      url: '/v1/nodes',
      headers: { authorization: userToken },
    });
    const plainList = plain.json<UserNodesList>();
    expect(plainList).toMatchObject({ nodes: ['A5'], total: 1 });
    expect(plainList.node_info.map((n) => n.node_id)).toEqual(['A5']);
    expect(plainList).not.toHaveProperty('node_details');
    expect((await info('A5')).is_claimed).toBe(true);
    // The same filters as the fleet list apply to one's own nodes.
    const ownFiltered = async (query: string) =>
      (
        await server.app.inject({
          method: 'GET',
          url: `/v1/user/nodes?${query}`,
          headers: { authorization: userToken },
        })
      ).json<{ nodes: string[]; total: number }>();
    expect(await ownFiltered('type=Air%20Conditioner&city=pune')).toMatchObject({
      nodes: ['A5'],
      total: 1,
    });
    expect(await ownFiltered('type=Refrigerator')).toMatchObject({ nodes: [], total: 0 });
    expect(await ownFiltered('search=A')).toMatchObject({ nodes: ['A5'], total: 1 });
    // The end user sees only their own nodes and cannot read the fleet.
    const fleet = await server.app.inject({
      method: 'GET',
      url: '/v1/admin/nodes',
      headers: { authorization: userToken },
    });
    expect(fleet.statusCode).toBe(403);

    // A factory reset reported by the node drops the association.
    server.services.ingest.nodeUserMapping(
      'A5',
      { node_id: 'A5', user_id: 'esp-rmaker', secret_key: 'failed', reset: true },
      Date.now(),
    );
    await server.services.ingest.flush();
    expect((await info('A5')).is_claimed).toBe(false);

    // A request the node never confirms is kept as timed out.
    const late = await server.app.inject({
      method: 'PUT',
      url: '/v1/user/nodes/mapping',
      headers: { authorization: userToken },
      payload: { node_id: 'A4', secret_key: 'never-confirmed', operation: 'add' },
    });
    const lateId = late.json<{ request_id: string }>().request_id;
    await server.database.db
      .updateTable('user_node_mappings')
      .set({ created_at: Math.floor(Date.now() / 1000) - 3600 })
      .where('request_id', '=', lateId)
      .execute();
    expect(await server.services.nodes.expireMappingRequests()).toBe(1);
    expect(await status(lateId)).toBe('timedout');

    // A confirmation that arrives after the deadline, before any sweep ran, does not claim.
    const tooLate = await server.app.inject({
      method: 'PUT',
      url: '/v1/user/nodes/mapping',
      headers: { authorization: userToken },
      payload: { node_id: 'A4', secret_key: 'confirmed-too-late', operation: 'add' },
    });
    const tooLateId = tooLate.json<{ request_id: string }>().request_id;
    await server.database.db
      .updateTable('user_node_mappings')
      .set({ created_at: Math.floor(Date.now() / 1000) - MAPPING_REQUEST_TIMEOUT_SECONDS - 1 })
      .where('request_id', '=', tooLateId)
      .execute();
    server.services.ingest.nodeUserMapping(
      'A4',
      { node_id: 'A4', user_id: userId, secret_key: 'confirmed-too-late' },
      Date.now(),
    );
    await server.services.ingest.flush();
    const row = await server.database.db
      .selectFrom('user_node_mappings')
      .select('status')
      .where('request_id', '=', tooLateId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('timedout');
    expect((await info('A4')).is_claimed).toBe(false);

    const unknown = await server.app.inject({
      method: 'PUT',
      url: '/v1/user/nodes/mapping',
      headers: { authorization: userToken },
      payload: { node_id: 'NOPE', secret_key: 'x', operation: 'add' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      status: 'failure',
      description: SERVER_MESSAGES.nodeNotFound,
      error_code: ERROR_CODES.notFound,
    });
  });

  it('keeps the status counters, by state and by state and type, equal to a recount after many changes', async () => {
    const t = Date.now();
    const types = ['Refrigerator', 'Washing Machine', 'Air Conditioner'];
    for (let i = 0; i < 40; i++) {
      const id = `A${(i % 5) + 1}`;
      if (i % 3 === 0) server.services.ingest.nodeDisconnected(id, 100 + i, t + i);
      else server.services.ingest.nodeConnected(id, 100 + i, t + i);
      // Now and then a node reports another type (in the same batch as a state change or not).
      if (i % 4 === 0) {
        const info = { name: id, type: types[i % 3] };
        server.services.ingest.nodeConfig(id, { node_id: id, info, devices: [] }, t + i);
      }
      if (i % 7 === 0) await server.services.ingest.flush();
    }
    await server.services.ingest.flush();
    const maintained = await readStatusCounters(server.database.db);
    expect(Object.keys(maintained).some((name) => name.startsWith('online|'))).toBe(true);
    expect(await rebuildCounters(server.database.db)).toEqual(maintained);

    // A list filtered by status and type reads its total from them.
    for (const type of types) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/v1/admin/nodes?node_status=online&type=${encodeURIComponent(type)}&num_records=100`,
        headers: { authorization: token },
      });
      const page = response.json<{ nodes: string[]; total: number }>();
      expect(page.total, type).toBe(page.nodes.length);
      expect(page.total, type).toBe(maintained[`online|${type}`] ?? 0);
    }

    // The broker-restart reset moves every online node of each type to offline.
    await server.services.ingest.resetConnectivity(t + 100);
    const afterReset = await readStatusCounters(server.database.db);
    expect(Object.keys(afterReset).some((name) => name.startsWith('online'))).toBe(false);
    expect(await rebuildCounters(server.database.db)).toEqual(afterReset);

    // The fleet's type as registered, for the tests that follow.
    for (const id of ['A1', 'A2', 'A3', 'A4', 'A5']) {
      const info = { name: id, type: 'Air Conditioner' };
      server.services.ingest.nodeConfig(id, { node_id: id, info, devices: [] }, t + 200);
    }
    await server.services.ingest.flush();
    expect(await rebuildCounters(server.database.db)).toEqual(
      await readStatusCounters(server.database.db),
    );
  });

  it('sweeps online nodes the external broker holds no birth for offline, in their own session', async () => {
    const t = Date.now();
    const ingest = server.services.ingest;
    ingest.nodeConnected('A1', 9_000, t);
    ingest.nodeConnected('A2', 9_000, t);
    ingest.nodeConnected('A3', 9_000, t);
    await ingest.flush();
    // A2 (and A4, A5 of the other tests) were heard since the subscription; A1 and A3 were not.
    expect(await ingest.sweepUnconfirmed(new Set(['A2', 'A4', 'A5', 'A9']), t + 5)).toBe(2);
    await ingest.flush();
    expect((await info('A1')).node_status).toBe('offline');
    expect((await info('A3')).node_status).toBe('offline');
    expect((await info('A2')).node_status).toBe('online');
    expect((await info('A1')).status?.connectivity).toMatchObject({
      connected: false,
      timestamp: t + 5,
    });
    // Nothing left to sweep, and the counters agree with a recount.
    expect(await ingest.sweepUnconfirmed(new Set(['A2', 'A4', 'A5']), t + 6)).toBe(0);
    const maintained = await readStatusCounters(server.database.db);
    expect(await rebuildCounters(server.database.db)).toEqual(maintained);
    // The next birth of the swept node, in a newer session, brings it back.
    ingest.nodeConnected('A1', 9_001, t + 10);
    await ingest.flush();
    expect((await info('A1')).node_status).toBe('online');
    // So does a retained birth of the same session handled only after the sweep (a stalled loop).
    ingest.nodeConnected('A3', 9_000, t + 11);
    await ingest.flush();
    expect((await info('A3')).node_status).toBe('online');
  });

  it('pushes connectivity changes to dashboards over server-sent events', async () => {
    server.services.ingest.nodeDisconnected('A4', 5000, Date.now());
    await server.services.ingest.flush();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const received = await new Promise<string>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: '/v1/events', headers: { authorization: token } },
        (response) => {
          expect(response.statusCode).toBe(200);
          expect(response.headers['content-type']).toContain('text/event-stream');
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes(': connected')) {
              server.services.ingest.nodeConnected('A4', 5001, Date.now());
              void server.services.ingest.flush();
            }
            if (text.includes('event: node.connectivity')) {
              request.destroy();
              resolve(text);
            }
          });
        },
      );
      request.on('error', reject);
      setTimeout(() => reject(new Error('no event within 5 s')), 5000);
    });
    const data = /data: (.+)\n/.exec(received)?.[1] ?? '{}';
    expect(JSON.parse(data)).toMatchObject({
      type: 'node.connectivity',
      node_id: 'A4',
      connected: true,
    });
    const anonymous = await fetch(`http://127.0.0.1:${port}/v1/events`);
    expect(anonymous.status).toBe(401);
  });
});
