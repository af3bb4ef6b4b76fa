import type { NodeRegistration } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * Device groups against a real server: 12 nodes, four of them air conditioners in Pune. Tests run
 * in order and share the server: the list starts empty, 'Pune ACs' is created through the modal,
 * a static group gets nodes from the Devices list, and that group is deleted.
 */
interface Fixture {
  type: NodeRegistration['type'];
  city: string;
}
const times = (count: number, fixture: Fixture): Fixture[] =>
  Array.from({ length: count }, () => fixture);
const LAYOUT: Fixture[] = [
  ...times(4, { type: 'Air Conditioner', city: 'Pune' }),
  ...times(2, { type: 'Air Conditioner', city: 'Mumbai' }),
  ...times(2, { type: 'Refrigerator', city: 'Pune' }),
  ...times(2, { type: 'Washing Machine', city: 'Delhi' }),
  ...times(2, { type: 'Refrigerator', city: 'Kolkata' }),
];
const NODES = LAYOUT.map(({ type, city }, index) => {
  const number = String(index + 1).padStart(3, '0');
  return {
    node_id: `fd-grp-${number}`,
    name: `Unit ${number}`,
    type,
    model: `M-${index % 2}`,
    fw_version: '1.0.0',
    tags: [`location:${city}`, `esp.serial_num:GS${number}`],
  };
});
const PUNE_ACS = NODES.slice(0, 4).map((node) => node.node_id);

let server: RunningServer;
let token: string;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  token = await apiToken(server.url);
  await api('POST', '/v1/admin/node_ids', { nodes: NODES });
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

const dialog = () => page.getByRole('dialog');
const button = (name: string) => page.getByRole('button', { name, exact: true });
const nodeRows = () => page.getByTestId('node-table').locator('tbody tr[data-node-id]');
const nodeIds = () =>
  nodeRows().evaluateAll((rows) => rows.map((row) => row.getAttribute('data-node-id') ?? ''));

describe('Device Groups', () => {
  it('says to create a group while there is none, then creates Pune ACs with a live count', async () => {
    await page.getByRole('link', { name: 'Device Categories', exact: true }).first().click();
    await page.waitForURL(/\/home\/node-groups$/);
    await page.getByRole('heading', { name: 'Device Groups' }).waitFor();
    await page.getByTestId('groups-empty').getByText('Please create a Node Group').waitFor();
    await screenshot(page, 'groups-empty');

    await page.getByTestId('groups-empty').getByRole('button', { name: 'Create Group' }).click();
    await dialog().getByText('Create Device Group').waitFor();
    // The name is required.
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().getByText('Please provide group name.').waitFor();

    await dialog().getByLabel('Group name').fill('Pune ACs');
    await dialog().getByLabel('Description').fill('Air conditioners in Pune');
    await dialog().getByText('24 / 500').waitFor();
    await dialog().getByLabel('Node type', { exact: true }).click();
    await page.getByRole('option', { name: 'Air Conditioner', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('group-match-count').innerText(), { timeout: 10_000 })
      .toBe('6 nodes match these filters');
    await dialog().getByLabel('City', { exact: true }).fill('Pune');
    await page.keyboard.press('Escape'); // closes the suggestions, not the modal
    await expect
      .poll(() => page.getByTestId('group-match-count').innerText(), { timeout: 10_000 })
      .toBe('4 nodes match these filters');
    await screenshot(page, 'groups-create-modal');

    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText('Node group created successfully.').waitFor();
    await expect.poll(() => dialog().count()).toBe(0);
    const row = page.getByTestId('group-table').locator('tbody tr[data-group-id]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await expect(row.locator('td').nth(2).innerText()).resolves.toBe('Air conditioners in Pune');
    await screenshot(page, 'groups-list');

    await row.getByRole('link', { name: 'Pune ACs' }).click();
    await page.waitForURL(/\/home\/node-groups\/[^/]+$/);
    await expect.poll(() => nodeIds(), { timeout: 10_000 }).toEqual(PUNE_ACS);
    await expect(page.getByTestId('group-type').innerText()).resolves.toMatch(/automatic/i);
    // The server keeps the city lower-cased (cities match without regard to case).
    await expect(page.getByTestId('group-query').innerText()).resolves.toMatch(
      /^node_type:Air Conditioner&&node_city:pune$/i,
    );
    await expect(page.getByTestId('node-page-status').innerText()).resolves.toBe('Page 1 of 1');
    await screenshot(page, 'group-details');
  });

  it('adds nodes selected in the Devices list to a static group', async () => {
    const created = (await api('POST', '/v1/admin/node_group', {
      group_name: 'Lab bench',
    })) as { group_id: string };

    await page.goto('/home/nodes');
    await expect.poll(() => nodeIds(), { timeout: 10_000 }).toHaveLength(10);
    await page.getByLabel('Select fd-grp-007', { exact: true }).check();
    await page.getByLabel('Select fd-grp-009', { exact: true }).check();
    await button('Add to Device Group').click();
    await dialog().getByText('Add 2 selected nodes to a group.').waitFor();
    // Nothing chosen yet.
    await dialog().getByRole('button', { name: 'Add', exact: true }).click();
    await dialog().getByText('You will need to select a group to add nodes!').waitFor();

    await dialog().getByLabel('Group', { exact: true }).click();
    await page.getByRole('option', { name: `Lab bench (${created.group_id})` }).click();
    await screenshot(page, 'groups-add-modal');
    await dialog().getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Successfully added nodes to Lab bench').waitFor();
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(() => page.getByTestId('node-selection-count').count()).toBe(0);

    await page.goto(`/home/group-details/${created.group_id}`);
    await expect.poll(() => nodeIds(), { timeout: 10_000 }).toEqual(['fd-grp-007', 'fd-grp-009']);
    await expect(page.getByTestId('group-type').innerText()).resolves.toMatch(/static/i);
  });

  it('deletes a group through confirm, result and Ok, back to the list', async () => {
    const list = (await api('GET', '/v1/admin/node_group?num_records=25')) as {
      groups: { group_id: string; group_name: string }[];
    };
    const lab = list.groups.find((group) => group.group_name === 'Lab bench');
    if (!lab) throw new Error('Lab bench is missing');

    await page.goto(`/home/node-groups/${lab.group_id}`);
    await expect.poll(() => nodeIds(), { timeout: 10_000 }).toHaveLength(2);
    await button('Delete').click();
    await dialog().getByRole('button', { name: 'Yes, Delete' }).click();
    await dialog().getByText('Node group deleted successfully.').waitFor();
    await screenshot(page, 'groups-delete-result');
    await dialog().getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL(/\/home\/node-groups\/$/);
    const rows = page.getByTestId('group-table').locator('tbody tr[data-group-id]');
    await expect
      .poll(() => rows.allInnerTexts(), { timeout: 10_000 })
      .toEqual([expect.stringContaining('Pune ACs')]);
  });

  it('shows a clear not-found state for an unknown group, with a way back', async () => {
    await page.goto('/home/node-groups/0000-0000');
    await page.getByTestId('group-not-found').waitFor();
    await page.getByText('Node group does not exist').waitFor();
    await page.getByRole('link', { name: 'Back to Device Groups' }).click();
    await page.waitForURL(/\/home\/node-groups\/$/);
    await screenshot(page, 'group-not-found');
  });
});
