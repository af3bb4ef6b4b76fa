import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NODE_LABELS } from '../../packages/web/src/features/nodes/labels.js';
import { STATS_LABELS } from '../../packages/web/src/features/stats/labels.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * A release while operators have the dashboard open. Their tab runs the old build, whose next
 * screen asks for chunks the server no longer has: the app reloads once into the new build at the
 * same address instead of showing an error, and does not loop when the new build is broken too.
 *
 * The server serves a copy of the built dashboard (`WEB_DIST_DIR`); a "release" rewrites that
 * copy as a new build would: every script and stylesheet under a new name, every reference to it
 * in the other files changed to match.
 */
const BUILT = path.resolve(import.meta.dirname, '../../packages/web/dist');

let dist: string;
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;
/** Every document the page loaded (a reload is one more). */
let documents: string[];

/** Renames every hashed script and stylesheet and rewrites the references to it. */
function releaseNewBuild(tag: string): void {
  const assets = path.join(dist, 'assets');
  // Compressed copies hold the old text: a real build writes new ones; the server then sends the
  // files themselves.
  for (const dir of [assets, path.join(dist, 'shells'), dist]) {
    for (const name of fs.readdirSync(dir)) {
      if (/\.(br|gz|map)$/.test(name)) fs.rmSync(path.join(dir, name));
    }
  }
  const renamed = new Map<string, string>();
  for (const name of fs.readdirSync(assets)) {
    if (/\.(js|css)$/.test(name)) renamed.set(name, `${tag}-${name}`);
  }
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A reference always follows a slash: `./x.js`, `/assets/x.js`, `assets/x.js`.
  const reference = new RegExp(
    `(?<=/)(${[...renamed.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|')})`,
    'g',
  );
  const rewrite = (file: string) => {
    const text = fs.readFileSync(file, 'utf8');
    const next = text.replace(reference, (name) => renamed.get(name) ?? name);
    if (next !== text) fs.writeFileSync(file, next);
  };
  for (const [from, to] of renamed) {
    rewrite(path.join(assets, from));
    fs.renameSync(path.join(assets, from), path.join(assets, to));
  }
  for (const dir of [dist, path.join(dist, 'shells')]) {
    for (const name of fs.readdirSync(dir))
      if (name.endsWith('.html')) rewrite(path.join(dir, name));
  }
}

/** The chunk of a route module in the current copy, e.g. `product-serial.route-…js`. */
function routeChunk(route: string): string {
  const name = fs
    .readdirSync(path.join(dist, 'assets'))
    .find((file) => new RegExp(`(^|-)${route}\\.route-[\\w-]+\\.js$`).test(file));
  if (!name) throw new Error(`no chunk for ${route}`);
  return path.join(dist, 'assets', name);
}

/**
 * Signs in and opens the Devices list, then waits until the page has fetched every file it is
 * going to (the resource list stops growing), so that the release comes between two screens, as
 * it does for an operator, and not in the middle of loading one.
 */
async function openDevicesList(): Promise<void> {
  await signIn(page);
  await page.goto('/home/nodes');
  await page.getByRole('heading', { level: 1, name: NODE_LABELS.devicesHeading }).waitFor();
  const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').length);
  let count = await loaded();
  for (;;) {
    await page.waitForTimeout(400);
    const next = await loaded();
    if (next === count) break;
    count = next;
  }
}

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-release-'));
  fs.cpSync(BUILT, dist, { recursive: true });
  server = await startServer({ WEB_DIST_DIR: dist });
  ({ browser, close: closeBrowser } = await launchBrowser());
  // Nodes registered today, so the statistics dashboard draws its registrations chart.
  await apiJson(server.url, await apiToken(server.url), 'POST', '/v1/admin/node_ids', {
    nodes: ['001', '002', '003'].map((number) => ({
      node_id: `fd-release-${number}`,
      name: `Unit ${number}`,
      type: 'Refrigerator',
      model: 'R-1',
      fw_version: '1.0.0',
      tags: ['location:Pune', `esp.serial_num:RL${number}`],
    })),
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  if (dist) fs.rmSync(dist, { recursive: true, force: true });
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
  documents = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
});
afterEach(async () => {
  await context.close();
});

describe('a release while the dashboard is open', () => {
  it('reloads once into the new build at the address the operator asked for', async () => {
    await openDevicesList();
    const before = documents.length;
    const oldChunk = path.basename(routeChunk('geo-region'));

    releaseNewBuild('r2');
    expect(fs.existsSync(path.join(dist, 'assets', oldChunk))).toBe(false);
    const missing = page.waitForResponse((response) => response.url().endsWith(oldChunk));
    await page.getByRole('link', { name: NODE_LABELS.geoRegionHeading }).click();
    expect((await missing).status()).toBe(404);

    await page.waitForURL(/\/home\/georegion$/);
    await expect
      .poll(() =>
        page.getByRole('heading', { level: 1, name: NODE_LABELS.geoRegionHeading }).isVisible(),
      )
      .toBe(true);
    // One reload, of the screen the operator asked for, and the error screen never settled.
    expect(documents.slice(before)).toEqual(['/home/georegion']);
    expect(await page.getByText(MESSAGES.somethingWentWrong).count()).toBe(0);
    // The page now runs the new build.
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((name) => name.endsWith('.js')),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((name) => name.startsWith('/assets/r2-'))).toBe(true);
    await screenshot(page, 'new-release-reloaded');
  });

  it('shows the error screen, not a reload loop, when the new build lacks the chunk too', async () => {
    await openDevicesList();
    const before = documents.length;
    releaseNewBuild('r3');
    // A broken release: the product serial screen's module is missing from it.
    fs.rmSync(routeChunk('product-serial'));
    await page.getByRole('link', { name: NODE_LABELS.productSerialHeading }).click();

    await expect
      .poll(() => page.getByRole('heading', { name: MESSAGES.somethingWentWrong }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await page.waitForTimeout(1_500);
    expect(documents.slice(before)).toEqual(['/home/productserial']);
    expect(await page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    await screenshot(page, 'new-release-broken');
  });

  it('reloads a page once when a lazy part of it (a chart) cannot be fetched', async () => {
    // The charts' chunk is lost once on the way (a release or a dropped connection).
    let refused = 0;
    await page.route(/\/assets\/[\w-]*stats-chart-[\w-]+\.js$/, async (route) => {
      if (refused++ === 0) await route.abort('connectionreset');
      else await route.continue();
    });
    await signIn(page);
    await page.waitForURL(/\/home\/?$/);
    await page.getByTestId('chart-registrations').getByRole('img').waitFor({ timeout: 15_000 });
    expect(refused).toBe(2);
    // The sign-in page, then /home once more: the reload.
    expect(documents).toEqual(['/login', '/home']);
    expect(await page.getByText(STATS_LABELS.chartFailed).count()).toBe(0);
  });

  it('runs on without toasts when the toast container cannot be fetched', async () => {
    let refused = 0;
    await page.route(/\/assets\/[\w-]*toast-container-[\w-]+\.js$/, async (route) => {
      refused += 1;
      await route.abort('connectionreset');
    });
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByRole('heading', { level: 1, name: NODE_LABELS.devicesHeading }).waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(3);
    expect(refused).toBeGreaterThan(0);
  });
});
