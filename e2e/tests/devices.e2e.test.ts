import fs from 'node:fs';
import { MESSAGES, NODE_TYPES, type NodeRegistration } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * The node screens against a real server: 130 registered nodes (more than one 100-node CSV
 * request), of three types in six cities, with names that CSV must quote and unicode it must keep.
 */
const CITIES = ['Pune', 'Mumbai', 'Delhi', 'Kolkata', 'banglore', 'München'] as const;
const NODE_COUNT = 130;

function registration(index: number): NodeRegistration & { node_id: string; name: string } {
  const number = String(index + 1).padStart(3, '0');
  const names: Record<number, string> = {
    0: 'Lab "A", bench\n2',
    1: 'Kühlschrank 冷蔵庫',
    2: '=cmd|calc',
  };
  return {
    node_id: `fd-node-${number}`,
    name: names[index] ?? `Unit ${number}`,
    type: NODE_TYPES[index % 3] ?? 'Air Conditioner',
    model: `${['AC', 'RF', 'WM'][index % 3]}-${100 + (index % 4)}`,
    fw_version: `1.${index % 5}.0`,
    tags: [`location:${CITIES[index % CITIES.length]}`, `esp.serial_num:SN${number}`],
  };
}

const NODES = Array.from({ length: NODE_COUNT }, (_, index) => registration(index));
const COLUMNS = ['Node Device Id', 'Status', 'Location', 'Serial no.', 'Version', 'Type', 'Model'];

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  const token = await apiToken(server.url);
  const response = await fetch(`${server.url}/v1/admin/node_ids`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({ nodes: NODES }),
  });
  if (!response.ok) throw new Error(`registration failed: ${await response.text()}`);
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
  await signIn(page);
});
afterEach(async () => {
  await context.close();
});

const table = () => page.getByTestId('node-table');
const bodyRows = () => table().locator('tbody tr[data-node-id]');
const pageStatus = () => page.getByTestId('node-page-status');
const button = (name: string) => page.getByRole('button', { name, exact: true });

async function firstIds(count = 100): Promise<string[]> {
  return (
    await bodyRows().evaluateAll((rows) =>
      rows.map((row) => row.getAttribute('data-node-id') ?? ''),
    )
  ).slice(0, count);
}

async function waitForRows(expected: string[]): Promise<void> {
  await expect.poll(() => firstIds(), { timeout: 10_000 }).toEqual(expected);
}

/** The texts of one column, found by its header (the checkbox column is there or not). */
async function columnOf(name: string): Promise<string[]> {
  const headers = (await table().locator('thead th').allInnerTexts()).map((text) => text.trim());
  const index = headers.indexOf(name);
  if (index === -1) throw new Error(`no column ${name} in ${headers.join(', ')}`);
  return bodyRows()
    .locator(`td:nth-child(${index + 1})`)
    .allInnerTexts();
}

const label = (text: string) => page.getByLabel(text, { exact: true });

const isDisabled = (locator: Locator) => locator.isDisabled();

describe('Devices list', () => {
  it('shows the spec columns and pages with Prev, Next and Page X of Y', async () => {
    await page.getByRole('link', { name: 'Devices', exact: true }).first().click();
    await page.waitForURL(/\/home\/nodes$/);
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));

    const headers = await table().locator('thead th').allInnerTexts();
    expect(headers.slice(1).map((text) => text.trim())).toEqual(COLUMNS);
    await label('Select all loaded nodes').waitFor({ state: 'visible' });
    await expect(columnOf('Location')).resolves.toEqual(
      NODES.slice(0, 10).map((_, i) => CITIES[i % CITIES.length]),
    );
    await expect(columnOf('Serial no.')).resolves.toEqual(
      NODES.slice(0, 10).map((node) => node.tags[1]?.split(':')[1]),
    );
    // Registered nodes have never connected: every dot is grey.
    const dots = await table()
      .locator('[data-status]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
    expect(new Set(dots)).toEqual(new Set(['unknown']));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 13');
    await expect(isDisabled(button('Prev'))).resolves.toBe(true);
    await screenshot(page, 'devices-list');

    await button('Next').click();
    await waitForRows(NODES.slice(10, 20).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 13');
    await expect(isDisabled(button('Prev'))).resolves.toBe(false);
    await button('Prev').click();
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 13');

    // A new page size starts again at page 1.
    await button('Next').click();
    await waitForRows(NODES.slice(10, 20).map((node) => node.node_id));
    await label('Rows per page').selectOption('25');
    await waitForRows(NODES.slice(0, 25).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 6');
    for (let i = 0; i < 5; i += 1) await button('Next').click();
    await waitForRows(NODES.slice(125).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 6 of 6');
    await expect(isDisabled(button('Next'))).resolves.toBe(true);
    const domSize = await page.evaluate(() => document.getElementsByTagName('*').length);
    expect(domSize).toBeLessThan(1_500);
  });

  it('shows no page count while the first page loads, then the real one', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/admin/nodes?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/home/nodes`);
    await table().waitFor({ state: 'visible' });
    // The answer is held back: the pager must not claim a single page.
    await expect.poll(() => pageStatus().innerText()).toBe('Page 1 of …');
    await expect(pageStatus().getAttribute('aria-busy')).resolves.toBe('true');
    release();
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 13');
    await expect(pageStatus().getAttribute('aria-busy')).resolves.toBe('false');
    await page.unroute('**/v1/admin/nodes?*');
  });

  it('searches by device id, ignores whitespace, and restores the list when cleared', async () => {
    await page.goto('/home/nodes');
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    const search = label('Search by device id');
    await expect(search.getAttribute('maxlength')).resolves.toBe('64');

    await search.fill('fd-node-12');
    await waitForRows(NODES.slice(119, 129).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 1');
    await screenshot(page, 'devices-search');

    await search.fill('   ');
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 13');

    await search.fill('no-such-node');
    await page.getByText(MESSAGES.nodesNotFound).waitFor();
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 1');

    await page.getByRole('button', { name: 'Clear search by device id' }).click();
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
  });

  it('keeps the search and the page in the address, so Back from a device returns to them', async () => {
    const ids = (from: number, to: number) => NODES.slice(from, to).map((node) => node.node_id);
    await page.goto('/home/nodes');
    await waitForRows(ids(0, 10));
    const search = label('Search by device id');
    await search.fill('fd-node-');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('fd-node-');
    const entries = await page.evaluate(() => history.length);
    await button('Next').click();
    await waitForRows(ids(10, 20));
    await button('Next').click();
    await waitForRows(ids(20, 30));
    await expect(pageStatus().innerText()).resolves.toBe('Page 3 of 13');
    // Paging replaces the address instead of adding history entries.
    await expect(page.evaluate(() => history.length)).resolves.toBe(entries);

    await table().getByRole('link', { name: 'fd-node-021', exact: true }).click();
    await page.waitForURL(/\/home\/diagnostics\/report\/fd-node-021$/);
    // The list must be gone before Back, or an old list still on screen would pass the test.
    await table().waitFor({ state: 'detached' });
    await page.goBack();
    await waitForRows(ids(20, 30));
    await expect(pageStatus().innerText()).resolves.toBe('Page 3 of 13');
    await expect(search.inputValue()).resolves.toBe('fd-node-');
    await button('Prev').click();
    await waitForRows(ids(10, 20));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 13');

    // The page size comes back too; choosing one starts at page 1, keeping the search.
    await label('Rows per page').selectOption('25');
    await waitForRows(ids(0, 25));
    await button('Next').click();
    await waitForRows(ids(25, 50));
    await table().getByRole('link', { name: 'fd-node-026', exact: true }).click();
    await page.waitForURL(/\/home\/diagnostics\/report\/fd-node-026$/);
    // The list must be gone before Back, or an old list still on screen would pass the test.
    await table().waitFor({ state: 'detached' });
    await page.goBack();
    await waitForRows(ids(25, 50));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 6');

    // A new search starts again at page 1.
    await search.fill('fd-node-1');
    await waitForRows(ids(99, 124)); // fd-node-100 to fd-node-124: the ids it starts
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 2');
  });

  it('filters by type through the dropdown and the type and status query parameters', async () => {
    const fridges = NODES.filter((node) => node.type === 'Refrigerator');
    await page.goto('/home/nodes');
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    const typeSelect = label('Device type');
    await expect(typeSelect.locator('option').allInnerTexts()).resolves.toEqual([
      'All Devices',
      'Air Conditioner',
      'Refrigerator',
      'Washing Machine',
    ]);

    await typeSelect.selectOption('Refrigerator');
    await page.waitForURL(/type=Refrigerator/);
    await waitForRows(fridges.slice(0, 10).map((node) => node.node_id));
    await expect(columnOf('Type')).resolves.toEqual(Array(10).fill('Refrigerator'));
    await expect(pageStatus().innerText()).resolves.toBe(
      `Page 1 of ${Math.ceil(fridges.length / 10)}`,
    );

    // Straight from a URL, matched case-insensitively: type=Washing Machine, online only.
    await page.goto('/home/NODES?type=Washing%20Machine&status=true');
    await page.getByText(MESSAGES.nodesNotFound).waitFor();
    await expect(typeSelect.inputValue()).resolves.toBe('Washing Machine');
    await page.getByTestId('status-filter').waitFor();
    await page.getByRole('button', { name: 'Show every status' }).click();
    await waitForRows(
      NODES.filter((node) => node.type === 'Washing Machine')
        .slice(0, 10)
        .map((node) => node.node_id),
    );
  });

  it('enables Add to Device Group only with a selection, and selects all loaded rows', async () => {
    await page.goto('/home/nodes');
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    const addToGroup = button('Add to Device Group');
    await expect(isDisabled(addToGroup)).resolves.toBe(true);

    await label('Select fd-node-002').check();
    await expect(isDisabled(addToGroup)).resolves.toBe(false);
    await label('Select all loaded nodes').check();
    await expect(page.getByTestId('node-selection-count').innerText()).resolves.toBe('10 selected');
    await screenshot(page, 'devices-selected');
    await label('Select all loaded nodes').uncheck();
    await expect(isDisabled(addToGroup)).resolves.toBe(true);
  });

  it('links device ids to diagnostics with the diagnostics option on (the default), no Diag cookie needed', async () => {
    await page.goto('/home/nodes');
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('Diag');
    const link = table().getByRole('link', { name: 'fd-node-001', exact: true });
    await expect(link.getAttribute('href')).resolves.toBe('/home/diagnostics/report/fd-node-001');
    await expect(table().getByRole('link').count()).resolves.toBe(10);
  });

  it('links device ids to diagnostics with the option off only when the Diag cookie is true', async () => {
    const off = await startServer({ DIAGNOSTICS_LINKS: 'off' });
    const offContext = await newContext(browser, off.url);
    try {
      const token = await apiToken(off.url);
      const registered = await fetch(`${off.url}/v1/admin/node_ids`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({ nodes: NODES.slice(0, 3) }),
      });
      expect(registered.ok, await registered.text()).toBe(true);
      const offPage = await offContext.newPage();
      await signIn(offPage);
      await offPage.goto('/home/nodes');
      const offTable = offPage.getByTestId('node-table');
      await offTable.locator('tr[data-node-id="fd-node-001"]').waitFor();
      await expect(offTable.getByRole('link').count()).resolves.toBe(0);

      await offContext.addCookies([{ name: 'Diag', value: 'true', url: off.url }]);
      await offPage.reload();
      const link = offTable.getByRole('link', { name: 'fd-node-001', exact: true });
      await expect(link.getAttribute('href')).resolves.toBe('/home/diagnostics/report/fd-node-001');
    } finally {
      await offContext.close();
      await off.stop();
    }
  });

  it('turns a status dot green within a second of a node.connectivity event, without refetching', async () => {
    // The stream is played from a recording: registered nodes cannot connect in this test.
    const live = await context.newPage();
    const event = {
      type: 'node.connectivity',
      node_id: 'fd-node-003',
      connected: true,
      timestamp: Date.now(),
    };
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await live.route('**/v1/events', async (route) => {
      await held;
      await route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        // A long retry keeps the browser from reconnecting (and resyncing) during the test.
        body: `retry: 600000\n\n: ping\n\nevent: node.connectivity\ndata: ${JSON.stringify(event)}\n\n`,
      });
    });
    await live.goto('/home/nodes');
    await live.getByText('fd-node-003').waitFor();
    const dot = live.locator('tr[data-node-id="fd-node-003"] [data-status]');
    await expect(dot.getAttribute('data-status')).resolves.toBe('unknown');
    await live.waitForLoadState('networkidle');

    const listRequests: string[] = [];
    live.on('request', (request) => {
      if (request.url().includes('/v1/admin/nodes')) listRequests.push(request.url());
    });
    const sent = Date.now();
    release();
    await expect
      .poll(() => dot.getAttribute('data-status'), { timeout: 2_000, interval: 50 })
      .toBe('connected');
    expect(Date.now() - sent).toBeLessThan(1_500);
    await expect(dot.getAttribute('aria-label')).resolves.toBe('Online');
    expect(listRequests).toEqual([]);
    await screenshot(live, 'devices-live-status');
  });

  it('opens one event stream for the dashboard and closes it on logout', async () => {
    const fresh = await context.newPage();
    const opened: string[] = [];
    const ended: string[] = [];
    const isStream = (url: string) => new URL(url).pathname === '/v1/events';
    fresh.on('request', (request) => {
      if (isStream(request.url())) opened.push(request.resourceType());
    });
    fresh.on('requestfailed', (request) => {
      if (isStream(request.url())) ended.push('failed');
    });
    fresh.on('requestfinished', (request) => {
      if (isStream(request.url())) ended.push('finished');
    });
    await fresh.goto('/home/nodes');
    await fresh.getByText('fd-node-001').waitFor();
    await fresh.getByRole('link', { name: 'Search By Geo Region' }).click();
    await fresh.getByRole('heading', { name: 'Search By Geo Region' }).waitFor();
    await fresh.getByRole('link', { name: 'Devices', exact: true }).first().click();
    await fresh.getByText('fd-node-001').waitFor();
    expect(opened).toEqual(['eventsource']);
    expect(ended).toEqual([]);

    await fresh.getByRole('button', { name: 'Account settings' }).click();
    await fresh.getByRole('menuitem', { name: 'Logout' }).click();
    await fresh
      .getByRole('dialog')
      .getByRole('button', { name: MESSAGES.logoutConfirmButton })
      .click();
    await fresh.waitForURL(/\/login$/);
    await expect.poll(() => ended.length, { timeout: 5_000 }).toBe(1);
    expect(opened).toHaveLength(1);
  });
});

describe('Graphs', () => {
  it('shows the same table with Air Conditioner, Refrigerator and Washing Machine', async () => {
    await page.goto('/home/metricss?type=Washer');
    const washers = NODES.filter((node) => node.type === 'Washing Machine');
    await waitForRows(washers.slice(0, 10).map((node) => node.node_id));
    await expect(label('Device type').locator('option').allInnerTexts()).resolves.toEqual([
      'Air Conditioner',
      'Refrigerator',
      'Washing Machine',
    ]);
    await expect(label('Device type').inputValue()).resolves.toBe('Washing Machine');
  });
});

describe('Geo Region', () => {
  it('finds the devices of a type in a city, and says so when there are none', async () => {
    await page.getByRole('link', { name: 'Search By Geo Region' }).click();
    await page.getByRole('heading', { name: 'Search By Geo Region' }).waitFor();
    const punAcs = NODES.filter(
      (node) => node.type === 'Air Conditioner' && node.tags[0] === 'location:Pune',
    );
    await label('Location').fill('pune');
    await waitForRows(punAcs.slice(0, 10).map((node) => node.node_id));
    await expect(columnOf('Location')).resolves.toEqual(Array(10).fill('Pune'));
    await expect(pageStatus().innerText()).resolves.toBe(
      `Page 1 of ${Math.ceil(punAcs.length / 10)}`,
    );
    await screenshot(page, 'geo-region');

    await label('Device type').selectOption('Refrigerator');
    await page.getByText(MESSAGES.locationNotFound).waitFor();
    await label('Location').fill('MUMBAI');
    const mumbaiFridges = NODES.filter(
      (node) => node.type === 'Refrigerator' && node.tags[0] === 'location:Mumbai',
    );
    await waitForRows(mumbaiFridges.slice(0, 10).map((node) => node.node_id));

    await label('Location').fill('Atlantis');
    await page.getByText(MESSAGES.locationNotFound).waitFor();
  });
});

describe('Product serial', () => {
  it('needs a serial, then finds exactly that device or says Device not found.', async () => {
    await page.goto('/home/Productserial');
    const input = page.getByPlaceholder('Enter Serial no.');
    await expect(input.getAttribute('maxlength')).resolves.toBe('64');
    await expect(isDisabled(button('Search'))).resolves.toBe(true);
    await input.fill('   ');
    await expect(isDisabled(button('Search'))).resolves.toBe(true);

    await input.fill('sn005');
    await input.press('Enter');
    await waitForRows(['fd-node-005']);
    await screenshot(page, 'product-serial');

    await input.fill('SN999');
    await button('Search').click();
    await page.getByText(MESSAGES.deviceNotFound).waitFor();
  });
});

describe('Manage device', () => {
  it('lists offline nodes by default with the hint and a disabled Add to Node Group', async () => {
    await page.goto('/home/managedevice');
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    await page.getByText('Select the device to add them in the Device Group.').waitFor();
    // Every registered node is still not activated: none online, none offline.
    await page.getByText(MESSAGES.nodesNotFound).waitFor();
    await expect(page.getByTestId('status-filter').innerText()).resolves.toContain('Offline');
    await expect(isDisabled(button('Add to Node Group'))).resolves.toBe(true);
    await expect(label('Search by product id').getAttribute('maxlength')).resolves.toBe('64');
    await screenshot(page, 'manage-device');
  });
});

describe('Device reports', () => {
  it('downloads every node as a UTF-8 CSV with a BOM, following the pages to the end', async () => {
    const pageRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/admin/nodes') && request.url().includes('num_records=100'))
        pageRequests.push(request.url());
    });
    await page.getByRole('link', { name: 'DeviceReports' }).click();
    await waitForRows(NODES.slice(0, 10).map((node) => node.node_id));

    const downloading = page.waitForEvent('download');
    await button('Download All CSV').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^fleetdeck-devices-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const bytes = fs.readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    expect(pageRequests).toHaveLength(2);

    const records = text.split('\r\n');
    expect(records[0]).toBe('Node Device Id,Status,Location,Serial no.,Version,Type,Model,Name');
    expect(records[1]).toBe(
      'fd-node-001,Unknown,Pune,SN001,1.0.0,Air Conditioner,AC-100,"Lab ""A"", bench\n2"',
    );
    expect(records[2]).toBe(
      'fd-node-002,Unknown,Mumbai,SN002,1.1.0,Refrigerator,RF-101,Kühlschrank 冷蔵庫',
    );
    expect(records[3]).toBe(
      "fd-node-003,Unknown,Delhi,SN003,1.2.0,Washing Machine,WM-102,'=cmd|calc",
    );
    expect(records[6]).toContain(',München,');
    expect(records).toHaveLength(NODE_COUNT + 2); // header, 130 nodes, the empty end
    expect(records.at(-2)).toMatch(/^fd-node-130,/);
    await page.getByText('Downloaded 130 devices.').waitFor();
    await screenshot(page, 'device-reports');
  });

  it('downloads only the nodes matching the filters on screen', async () => {
    await page.goto('/home/device-reports/?type=Refrigerator');
    await waitForRows(
      NODES.filter((node) => node.type === 'Refrigerator')
        .slice(0, 10)
        .map((node) => node.node_id),
    );
    const downloading = page.waitForEvent('download');
    await button('Download All CSV').click();
    const text = fs.readFileSync(await (await downloading).path(), 'utf8');
    const types = text
      .slice(1)
      .split('\r\n')
      .slice(1, -1)
      .map((record) => record.split(',')[5]);
    expect(types).toHaveLength(NODES.filter((node) => node.type === 'Refrigerator').length);
    expect(new Set(types)).toEqual(new Set(['Refrigerator']));
  });
});
