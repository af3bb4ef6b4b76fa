import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasMosquitto,
  startOwnMosquitto,
  type OwnMosquitto,
} from '../../packages/server/test/helpers/mqtt-mosquitto.js';
import { createTestDatabase } from '../../packages/server/test/helpers/test-database.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  apiToken,
  freePort,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { startSimulator, type RunningSimulator } from '../helpers/simulator.js';

// Two built servers behind one address, as a scale-out runs them (docs/OPERATIONS.md): one
// PostgreSQL, one Mosquitto (each instance with its own account), one Redis. CI sets all three.
const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL && hasMosquitto);
const NODES = 20;

describe.runIf(ready)('two instances sharing PostgreSQL, Mosquitto and Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let broker: OwnMosquitto;
  let first: RunningServer;
  let second: RunningServer;
  let simulator: RunningSimulator | undefined;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    broker = await startOwnMosquitto({ nodes: [], gateways: [] }, { open: true });
    const firstPort = await freePort();
    const prefix = `fleetdeck-e2e-${randomUUID()}:`;
    const shared = (account: string) => ({
      DATABASE_URL: database.env.DATABASE_URL ?? '',
      MQTT_URL: `mqtt://${account}@127.0.0.1:${broker.port}`,
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      // This run's own keys: the account windows of an earlier run (on the same Redis, within
      // their 15 minutes) would lock this run's admin from its first sign-in.
      REDIS_KEY_PREFIX: prefix,
      // One address for both, as behind a load balancer: tokens of one are valid on the other.
      PUBLIC_URL: `http://127.0.0.1:${firstPort}`,
    });
    // The first instance migrates and creates the first super admin; then the second joins.
    first = await startServer(shared('fd1'), { port: firstPort });
    second = await startServer(shared('fd2'));
    ({ browser, close: closeBrowser } = await launchBrowser());
    // The fleet registers through the first instance; the broker shares its messages out.
    simulator = await startSimulator(first, NODES, [], broker.url);
  }, 120_000);

  afterAll(async () => {
    simulator?.stop();
    await closeBrowser?.();
    await second?.stop();
    await first?.stop();
    await broker?.stop();
    await database?.cleanup();
  });

  const totals = async (server: RunningServer) => {
    const token = await apiToken(server.url);
    const total = async (status: string) => {
      const response = await fetch(
        `${server.url}/v1/admin/nodes?node_status=${status}&num_records=1`,
        { headers: { authorization: token } },
      );
      return ((await response.json()) as { total: number }).total;
    };
    return { online: await total('online'), offline: await total('offline') };
  };

  it('warns at start-up about the one shared part left out here: the file store', () => {
    for (const server of [first, second]) {
      const warnings = server
        .output()
        .split('\n')
        .filter((line) => line.includes('they will not agree'));
      expect(warnings).toHaveLength(1);
      const gaps = (JSON.parse(warnings[0] ?? '{}') as { gaps?: string[] }).gaps ?? [];
      expect(gaps.map((gap) => gap.split(' ')[0])).toEqual(['S3_BUCKET']);
    }
  });

  it("shows the fleet on the other instance's dashboard and turns it red live when the fleet dies, with counts that add up", async () => {
    const context = await newContext(browser, second.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/home/nodes?size=25');
    const dots = page.locator('[data-testid="node-table"] tbody [data-status]');
    const statuses = () =>
      dots.evaluateAll((elements) =>
        elements.map((element) => element.getAttribute('data-status')),
      );
    await expect
      .poll(statuses, { timeout: 15_000 })
      .toSatisfy(
        (list: Array<string | null>) =>
          list.length === NODES && list.every((status) => status === 'connected'),
      );
    expect(await totals(second)).toEqual({ online: NODES, offline: 0 });
    await page.evaluate(() => {
      (window as unknown as { fleetdeckMark: number }).fleetdeckMark = 7;
    });

    // A power cut: Mosquitto sends every node's Last Will, consumed by whichever instance.
    simulator?.stop();
    simulator = undefined;
    await expect
      .poll(statuses, { timeout: 15_000, interval: 200 })
      .toSatisfy(
        (list: Array<string | null>) =>
          list.length === NODES && list.every((status) => status === 'disconnected'),
      );
    // Live, not reloaded.
    await expect(
      page.evaluate(() => (window as unknown as { fleetdeckMark?: number }).fleetdeckMark),
    ).resolves.toBe(7);
    await screenshot(page, 'scale-out-offline-on-second-instance');
    // The maintained counts agree on both instances (each change counted once).
    await expect
      .poll(() => totals(first), { timeout: 5_000 })
      .toEqual({
        online: 0,
        offline: NODES,
      });
    expect(await totals(second)).toEqual({ online: 0, offline: NODES });
    await context.close();
  });

  it('locks an account on both instances after wrong passwords spread over them', async () => {
    const login = (server: RunningServer, password: string) =>
      fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_name: 'nobody-here@fleetdeck.test', password }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await login(i % 2 ? second : first, 'Wrong-Password-1')).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    expect((await login(first, 'Wrong-Password-2')).status).toBe(429);
    expect((await login(second, 'Wrong-Password-2')).status).toBe(429);
  });
});
