import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { startSimulator, type RunningSimulator } from '../helpers/simulator.js';

const NODES = 20;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let simulator: RunningSimulator | undefined;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  simulator = await startSimulator(server, NODES);
});

afterAll(async () => {
  simulator?.stop();
  await closeBrowser?.();
  await server?.stop();
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
    simulator?.stop();
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
