import { LABELS } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STALLED_SHELL_COPY } from '../../packages/web/src/app/static-shell-names.js';
import { signIn } from '../helpers/session.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';

/**
 * The static shells (ADR 35): the first screen is in the HTML, painted before any script runs,
 * inert until the app replaces it with the live page.
 */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
/** Responses of 400 or more for anything but the API (whose empty lists answer 404, spec §8). */
const failedAssets: string[] = [];

const SHELL = '#root > [data-static-shell]';

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});
beforeEach(async () => {
  errors.length = 0;
  failedAssets.length = 0;
  context = await newContext(browser, server.url);
  page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/v1/'))
      failedAssets.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
});
afterEach(async () => {
  await context.close();
});

/** Opens `path` with every script refused: what the browser paints from the HTML alone. */
async function withoutScripts(path: string): Promise<void> {
  await page.route('**/*.js', (route) => route.abort());
  await page.goto(path);
  await page.unroute('**/*.js');
}

/** Forgets the refused scripts' load errors (they were refused on purpose). */
function forgetRefusedScripts(): void {
  errors.length = 0;
}

describe('static shells', () => {
  it('paints the sign-in page from the HTML, then the app takes it over and signs in', async () => {
    await withoutScripts('/home/nodes');
    await page.getByText('Sign in to Fleetdeck', { exact: true }).waitFor();
    await expect(page.locator(SHELL).getAttribute('data-static-shell')).resolves.toBe('login');
    await expect(page.locator(SHELL).getAttribute('inert')).resolves.toBe('');
    // Inert and hidden from assistive technology: there is no usable button yet.
    await expect(page.getByRole('button', { name: 'Sign in' }).count()).resolves.toBe(0);
    await screenshot(page, 'static-shell-login');
    const shellHeading = await page.locator('h1').boundingBox();
    forgetRefusedScripts();

    await page.goto('/home/nodes');
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect(page.locator(SHELL).count()).resolves.toBe(0);
    // The live page puts the heading where the shell had it (standard mode: with sign-up).
    expect(await page.locator('h1').boundingBox()).toEqual(shellHeading);
    await page.getByRole('link', { name: /sign up/i }).waitFor();

    await signIn(page);
    await page.locator('[data-testid="node-table"]').waitFor();
    expect(errors).toEqual([]);
  });

  it('paints the devices frame for a signed-in browser, then the live list replaces it', async () => {
    await signIn(page);
    await withoutScripts('/home/nodes');
    await page.locator('h1').waitFor();
    await expect(page.locator(SHELL).getAttribute('data-static-shell')).resolves.toBe('devices');
    await expect(page.locator('h1').textContent()).resolves.toBe(LABELS.navDevices);
    await screenshot(page, 'static-shell-devices');
    const shellHeading = await page.locator('h1').boundingBox();
    forgetRefusedScripts();

    await page.goto('/home/nodes');
    await page.getByRole('heading', { name: LABELS.navDevices, level: 1 }).waitFor();
    await page.locator('[data-testid="node-table"]').waitFor();
    await expect(page.locator(SHELL).count()).resolves.toBe(0);
    expect(await page.locator('h1').boundingBox()).toEqual(shellHeading);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link')
      .first()
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('gives the dashboard and every list screen its frame, heading where the live screen puts it', async () => {
    await signIn(page);
    // The spec's paths, in the case the sidebar and the spec use (the server matches any case).
    for (const path of [
      '/home',
      '/home/metricss',
      '/home/managedevice',
      '/home/Georegion',
      '/home/Productserial',
      '/home/device-reports/',
      '/home/node-groups/',
      '/home/firmware-images',
      '/home/archived-firmware-images',
      '/home/Fault-images',
      '/home/fault-archived-fault-images',
      '/home/ota-jobs/',
      '/home/ota-archived-jobs',
      '/home/faultjobs',
      '/home/fault-ota-archived-jobs',
      '/home/FaultList',
      '/home/Faulthistory',
    ]) {
      await withoutScripts(path);
      const shellHeading = page.locator(`${SHELL} h1`);
      await shellHeading.waitFor();
      const title = await shellHeading.textContent();
      const box = await shellHeading.boundingBox();
      // The heading's block (with the line under it on the fault screens) is as tall live.
      const block = await shellHeading.locator('..').boundingBox();
      forgetRefusedScripts();

      await page.goto(path);
      await page.getByRole('heading', { name: title ?? '', level: 1, exact: true }).waitFor();
      await expect(page.locator(SHELL).count(), path).resolves.toBe(0);
      expect(await page.locator('h1').boundingBox(), path).toEqual(box);
      expect(await page.locator('h1').locator('..').boundingBox(), path).toEqual(block);
      // An empty list's 404 (no groups, no jobs yet) is the API's answer, not a fault of the page.
      expect(
        errors.filter((error) => !error.includes('status of 404')),
        path,
      ).toEqual([]);
      expect(failedAssets, path).toEqual([]);
    }
  });

  it('says so and offers a reload when the app never takes the shell over', async () => {
    await withoutScripts('/home/nodes');
    await page.locator(SHELL).waitFor();
    const notice = page.getByRole('alert').filter({ hasText: STALLED_SHELL_COPY.title });
    // Hidden while the app may still be loading...
    await expect(notice.isVisible()).resolves.toBe(false);
    // ...shown once the delay has passed (its CSS animation run to the end here).
    await page.evaluate(() => document.getAnimations().forEach((animation) => animation.finish()));
    await notice.waitFor({ state: 'visible' });
    await screenshot(page, 'static-shell-stalled');
    forgetRefusedScripts();

    // The link works although the shell is inert: it loads the page again, this time with scripts.
    await notice.getByRole('link', { name: STALLED_SHELL_COPY.reload }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect(page.locator(SHELL).count()).resolves.toBe(0);
    await expect(page.getByText(STALLED_SHELL_COPY.title).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  it('sends other signed-in pages without a shell', async () => {
    await signIn(page);
    const response = await page.goto('/home/userinfo');
    expect(await response?.text()).not.toContain('data-static-shell');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(errors).toEqual([]);
  });
});
