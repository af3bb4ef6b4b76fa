import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  apiToken,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIMULATOR = path.join(ROOT, 'packages/simulator/dist/cli.js');
const NODES = 20;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let simulator: ChildProcess | undefined;
let stateDir: string;

async function onlineCount(token: string): Promise<number> {
  const response = await fetch(`${server.url}/v1/admin/nodes?node_status=online&num_records=1`, {
    headers: { authorization: token },
  });
  return ((await response.json()) as { total: number }).total;
}

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  const mqttPort = /embedded broker on port (\d+)/.exec(server.output())?.[1];
  if (!mqttPort) throw new Error(`no MQTT port in the server output:\n${server.output()}`);
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-sim-'));
  simulator = spawn(
    process.execPath,
    [
      SIMULATOR,
      '--server',
      server.url,
      '--mqtt',
      `mqtt://127.0.0.1:${mqttPort}`,
      '--nodes',
      String(NODES),
      '--state',
      path.join(stateDir, 'fleet.json'),
      '--seed',
      '7',
      '--flap-rate',
      '0',
      '--claim-share',
      '0',
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        FLEETDECK_ADMIN_EMAIL: E2E_ADMIN_EMAIL,
        FLEETDECK_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const token = await apiToken(server.url);
  const deadline = Date.now() + 30_000;
  while ((await onlineCount(token)) < NODES) {
    if (Date.now() > deadline || simulator.exitCode !== null) {
      throw new Error(
        `the simulated fleet did not come online (simulator exit ${simulator.exitCode})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

afterAll(async () => {
  if (simulator && simulator.exitCode === null) simulator.kill('SIGKILL');
  await closeBrowser?.();
  await server?.stop();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('a live simulated fleet', () => {
  it('shows the fleet green, and red within seconds of the simulator dying, without a reload', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/home/nodes');
    const dots = page.locator('[data-testid="node-table"] tbody [data-status]');
    await expect.poll(() => dots.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const statuses = () =>
      dots.evaluateAll((elements) =>
        elements.map((element) => element.getAttribute('data-status')),
      );
    await expect
      .poll(statuses, { timeout: 10_000 })
      .toSatisfy((list: Array<string | null>) => list.every((s) => s === 'connected'));
    await screenshot(page, 'fleet-live-online');

    // Mark the document: a reload would lose the mark.
    await page.evaluate(() => {
      (window as unknown as { fleetdeckMark: number }).fleetdeckMark = 42;
    });
    const started = Date.now();
    simulator?.kill('SIGKILL');
    await expect
      .poll(statuses, { timeout: 15_000, interval: 200 })
      .toSatisfy(
        (list: Array<string | null>) => list.length > 0 && list.every((s) => s === 'disconnected'),
      );
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect(
      page.evaluate(() => (window as unknown as { fleetdeckMark?: number }).fleetdeckMark),
    ).resolves.toBe(42);
    await screenshot(page, 'fleet-live-offline');
    await context.close();
  });
});
