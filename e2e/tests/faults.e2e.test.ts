import {
  FAULT_PARAM_BY_TYPE,
  MESSAGES,
  NODE_TYPES,
  formatMessage,
  type FaultBreakdown,
  type FaultNodesList,
  type NodeType,
  type ParamByValueCount,
} from '@fleetdeck/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { startSimulator, type RunningSimulator } from '../helpers/simulator.js';

const NODES = 150;
/** Faults per node per hour: high, so that a code clusters within a couple of minutes. */
const FAULT_RATE = '100';
/** The simulator steps a node's fault every 30–120 s, so the first faults take a while. */
const FAULTS_DEADLINE_MS = 150_000;
const SERVICE_MANAGER = 'service.manager@fleetdeck.test';
const SERVICE_MANAGER_PASSWORD = 'Spanner-Crew-2031';
/** The fault device list's URL segment of each node type (features/faults/model/fault-types). */
const TYPE_KEY: Readonly<Record<NodeType, string>> = {
  'Air Conditioner': 'ac',
  Refrigerator: 'ref',
  'Washing Machine': 'washer',
};

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let simulator: RunningSimulator | undefined;
let token: string;
/** The type and code most simulated nodes report, with how many report it. */
let target: { type: NodeType; code: string; count: number };

const api = <T>(method: string, url: string, body?: unknown): Promise<T> =>
  apiJson<T>(server.url, token, method, url, body);

/** The most reported fault code over all types right now, if any. */
async function mostReported(): Promise<typeof target | undefined> {
  let best: typeof target | undefined;
  for (const type of NODE_TYPES) {
    const counts = await api<ParamByValueCount>(
      'GET',
      `/insights/v1/param/byvalue/count?dimensionname=${FAULT_PARAM_BY_TYPE[type]}&datatype=2&limit=1000`,
    ).catch(() => ({ distribution: [] }));
    for (const { value, count } of counts.distribution) {
      if (best === undefined || count > best.count) best = { type, code: value, count };
    }
  }
  return best;
}

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  simulator = await startSimulator(server, NODES, ['--fault-rate', FAULT_RATE]);
  token = await apiToken(server.url);
  await api('POST', '/v1/admin/user2', {
    user_name: SERVICE_MANAGER,
    password: SERVICE_MANAGER_PASSWORD,
    roles: ['service_manager_role'],
  });
  // Let faults pile up until one code is reported by a few devices, then freeze the fleet so
  // the screens and the API are compared on the same data.
  const deadline = Date.now() + FAULTS_DEADLINE_MS;
  for (;;) {
    const found = await mostReported();
    if (found !== undefined && found.count >= 3) break;
    if (Date.now() > deadline) throw new Error(`no fault reported:\n${simulator.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  simulator.stop();
  simulator = undefined;
  // Reports already sent are applied in the next ingest batch.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const found = await mostReported();
  if (found === undefined) throw new Error('the faults vanished');
  target = found;
}, FAULTS_DEADLINE_MS + 60_000);

afterAll(async () => {
  simulator?.stop();
  await closeBrowser?.();
  await server?.stop();
});

describe('fault screens on a simulated fleet', () => {
  it('lets a service manager find the devices with a fault, see where it clusters and open one history', async () => {
    const typeKey = TYPE_KEY[target.type];
    const list = await api<FaultNodesList>(
      'GET',
      `/v1/admin/faults/nodes?type=${encodeURIComponent(target.type)}&code=${encodeURIComponent(target.code)}&num_records=10`,
    );
    const breakdown = await api<FaultBreakdown>(
      'GET',
      `/v1/admin/faults/breakdown?type=${encodeURIComponent(target.type)}&code=${encodeURIComponent(target.code)}`,
    );
    expect(list.count).toBe(target.count);
    expect(breakdown.total).toBe(target.count);
    const display = list.nodes[0]?.disp_code || target.code;

    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page, SERVICE_MANAGER, SERVICE_MANAGER_PASSWORD);

    // Faults List: the sidebar's Active Fault List, the type, the code.
    await page.getByRole('link', { name: 'Active Fault List' }).click();
    await page.waitForURL(/\/home\/FaultList/);
    await page.getByLabel('Device type').selectOption(typeKey);
    const table = page.getByTestId('fault-list-table');
    await table.getByRole('row').nth(1).waitFor();
    await screenshot(page, 'faults-list');
    // The code may be on a later page of the catalogue: show 25 a page and page on until found.
    await page.locator('#node-page-size').selectOption('25');
    const codeLink = table.getByRole('link', {
      name: formatMessage('{code} – devices reporting {display}', {
        code: target.code,
        display,
      }),
      exact: true,
    });
    while ((await codeLink.count()) === 0) {
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await codeLink.click();
    await page.waitForURL(new RegExp(`/home/FaultList/${typeKey}/`));

    // The device list: the title's count is the API's.
    const title = page.getByTestId('fault-devices-title');
    await expect
      .poll(() => title.innerText(), { timeout: 10_000 })
      .toBe(
        formatMessage('{count} Devices With Fault {code}', { count: list.count, code: display }),
      );
    const rows = page.getByTestId('fault-device-table').locator('tbody tr[data-node-id]');
    await expect.poll(() => rows.count()).toBe(Math.min(10, list.count));
    expect(await rows.first().getAttribute('data-node-id')).toBe(list.nodes[0]?.node_id);

    // The breakdown: every firmware version the API names, with its count.
    const panel = page.getByTestId('fault-breakdown');
    for (const bucket of breakdown.by_fw_version.slice(0, 4)) {
      const item = panel.locator(`li[data-value="${bucket.value}"]`).first();
      await item.waitFor();
      expect(await item.innerText()).toContain(String(bucket.count));
    }
    await screenshot(page, 'faults-device-list');

    // Search by device id, exact: one row.
    const nodeId = list.nodes[0]?.node_id ?? '';
    await page.getByRole('searchbox', { name: 'Search by display code or device id' }).fill(nodeId);
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(1);

    // Fault History of that device.
    await page.getByRole('link', { name: `Fault history of ${nodeId}` }).click();
    await page.waitForURL(/\/home\/Faulthistory\?search=/);
    const card = page.locator(`article[data-node-id="${nodeId}"]`);
    await card.waitFor();
    expect(await card.innerText()).toContain(display);
    await screenshot(page, 'faults-history');

    // A product id nobody has: 'Nodes not found.'
    await page.getByRole('searchbox', { name: 'Search by product id' }).fill('no-such-device-id');
    await page.keyboard.press('Enter');
    await page.getByText(MESSAGES.nodesNotFound).waitFor();
    await context.close();
  }, 120_000);
});
