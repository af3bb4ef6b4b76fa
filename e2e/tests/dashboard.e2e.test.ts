import { MESSAGES, NODE_TYPES } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * The statistics dashboard at /home against a real server: 9 nodes registered through the API and
 * one end user. The admin sees the counts, an invalid range shows the spec's message, and a role
 * without the dashboard lands on the devices list.
 */
const NODE_COUNT = 9;
const NODES = Array.from({ length: NODE_COUNT }, (_, index) => {
  const number = String(index + 1).padStart(3, '0');
  return {
    node_id: `fd-dash-${number}`,
    name: `Unit ${number}`,
    type: NODE_TYPES[index % 3] ?? 'Air Conditioner',
    model: `M-${index % 2}`,
    fw_version: '1.0.0',
    tags: ['location:Pune', `esp.serial_num:DS${number}`],
  };
});
const END_USER = 'dash-user@fleetdeck.test';
const END_USER_PASSWORD = 'Quiet-Harbor-2032';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

async function api(token: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
}

/** YYYY-MM-DD of the UTC day `days` from today (statistics days are UTC days). */
function utcDay(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  const token = await apiToken(server.url);
  await api(token, '/v1/admin/node_ids', { nodes: NODES });
  await api(token, '/v1/admin/user2', {
    user_name: END_USER,
    password: END_USER_PASSWORD,
    roles: ['user'],
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

const cardValue = (testId: string) => page.getByTestId(testId).getByTestId('stat-value');
const rangeError = () => page.getByTestId('range-error');

describe('the statistics dashboard', () => {
  it('shows the admin the fleet’s counts after nodes were registered through the API', async () => {
    await signIn(page);
    await expect.poll(() => page.url()).toMatch(/\/home\/?$/);
    await expect
      .poll(() => cardValue('stat-registered-nodes').textContent())
      .toBe(String(NODE_COUNT));
    // The first super admin and the end user.
    expect(await cardValue('stat-registered-users').textContent()).toBe('2');
    expect(await cardValue('stat-online').textContent()).toBe('0');
    expect(await cardValue('stat-offline').textContent()).toBe('0');
    expect(await cardValue('stat-claimed-nodes').textContent()).toBe('0');
    const status = page.getByTestId('device-status');
    await expect
      .poll(() => status.textContent())
      .toContain(`Total certificates generated${NODE_COUNT}`);
    // Today's registrations are drawn (the chart loads lazily, in its own chunk).
    await page.getByTestId('chart-registrations').getByRole('img').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('chart-registrations').textContent()).toContain(
      `${NODE_COUNT} in this range`,
    );
    await screenshot(page, 'dashboard-admin');
  });

  it('shows the spec’s message for every invalid daily range, and none for a valid one', async () => {
    await signIn(page);
    const start = page.getByLabel('Start date');
    const end = page.getByLabel('End date');
    await start.waitFor();
    expect(await rangeError().count()).toBe(0);

    await start.fill(utcDay(-40));
    await expect.poll(() => rangeError().textContent()).toBe(MESSAGES.statsDailyLimit);
    await screenshot(page, 'dashboard-range-error');

    await start.fill(utcDay(1));
    await expect.poll(() => rangeError().textContent()).toBe(MESSAGES.statsDateRangeInvalid);

    await end.fill('');
    await expect.poll(() => rangeError().textContent()).toBe(MESSAGES.statsInvalidDates);

    await start.fill(utcDay(-30));
    await end.fill(utcDay(0));
    await expect.poll(() => rangeError().count()).toBe(0);
  });

  it('shows the year message when the start year is after the end year', async () => {
    await signIn(page);
    await page.getByText('Yearly', { exact: true }).click();
    const thisYear = String(new Date().getUTCFullYear());
    await page.getByLabel('Start year').selectOption(thisYear);
    await page.getByLabel('End year').selectOption(String(Number(thisYear) - 1));
    await expect.poll(() => rangeError().textContent()).toBe(MESSAGES.statsYearRangeInvalid);
  });

  it('sends a role without dashboard access to the devices list', async () => {
    await signIn(page, END_USER, END_USER_PASSWORD);
    await page.goto('/home');
    await page.waitForURL(/\/home\/nodes\/?$/);
    expect(await page.getByTestId('stats-dashboard').count()).toBe(0);
  });
});
