import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  FAULT_PARAM_BY_TYPE,
  NODE_TYPES,
  type LogByIntervalResponse,
  type MetricListResponse,
  type MetricMetaResponse,
  type NodeInfo,
  type NodeType,
  type ParamByValueCount,
} from '@fleetdeck/contract';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { expectKeyboardScrollable, tabTo } from '../helpers/keyboard.js';
import { signIn } from '../helpers/session.js';
import { startSimulator, type RunningSimulator } from '../helpers/simulator.js';

/**
 * Every chart has a table view a keyboard reaches and a screen reader reads, with the chart's
 * values; a table that scrolls sideways on a phone is a named region the keyboard can scroll; the
 * open account menu draws no axe remark. Against a simulated fleet, frozen before the checks so
 * the screens and the API are compared on the same data.
 */
const NODES = 12;
const DATA_DEADLINE_MS = 150_000;
const LOG_TYPES = ['crash', 'reboot', 'error', 'warning', 'event'] as const;
const LOG_COLUMNS = ['Crash', 'Reboot', 'Error', 'Warning', 'Event'];
/** The dashboard's fault card of each node type (features/faults/model/fault-types). */
const TYPE_KEY: Readonly<Record<NodeType, string>> = {
  'Air Conditioner': 'ac',
  Refrigerator: 'ref',
  'Washing Machine': 'washer',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let simulator: RunningSimulator | undefined;
let token: string;
let context: BrowserContext;
let page: Page;
/** A node with log entries this month and metrics. */
let nodeId: string;
/** A node type some devices report a fault of, and how many devices report one. */
let faulty: { type: NodeType; devices: number };

const api = <T>(url: string): Promise<T> => apiJson<T>(server.url, token, 'GET', url);

const logTotal = (counts: Record<(typeof LOG_TYPES)[number], number>) =>
  LOG_TYPES.reduce((sum, type) => sum + counts[type], 0);

async function nodeWithDiagnostics(ids: readonly string[]): Promise<string | undefined> {
  for (const id of ids) {
    const query = `node_id=${encodeURIComponent(id)}`;
    const counts = await api<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?${query}&time=Month&tz=0`,
    ).catch(() => undefined);
    if (!counts || counts.data.every((bar) => logTotal(bar) === 0)) continue;
    const meta = await api<MetricMetaResponse>(`/insights/v1/node/metric/meta?${query}`).catch(
      () => undefined,
    );
    if (meta && meta.metrics.length > 0) return id;
  }
  return undefined;
}

async function faultyType(): Promise<typeof faulty | undefined> {
  for (const type of NODE_TYPES) {
    const counts = await api<ParamByValueCount>(
      `/insights/v1/param/byvalue/count?dimensionname=${FAULT_PARAM_BY_TYPE[type]}&datatype=2&limit=1000`,
    ).catch(() => ({ distribution: [] }));
    const devices = counts.distribution.reduce((sum, bucket) => sum + bucket.count, 0);
    if (devices > 0) return { type, devices };
  }
  return undefined;
}

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  simulator = await startSimulator(server, NODES, [
    '--diag-interval',
    '5',
    '--diag-crash-rate',
    '0.3',
    '--fault-rate',
    '100',
  ]);
  token = await apiToken(server.url);
  const deadline = Date.now() + DATA_DEADLINE_MS;
  let found: string | undefined;
  for (;;) {
    const { node_info: nodes } = await api<{ node_info: NodeInfo[] }>(
      `/v1/admin/nodes?num_records=${NODES}`,
    );
    found ??= await nodeWithDiagnostics(nodes.map((node) => node.node_id));
    if (found !== undefined && (await faultyType()) !== undefined) break;
    if (Date.now() > deadline)
      throw new Error(`no diagnostics or faults in time:\n${simulator.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  nodeId = found;
  simulator.stop();
  simulator = undefined;
  // Reports already sent are applied in the next ingest batch.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const type = await faultyType();
  if (type === undefined) throw new Error('the faults vanished');
  faulty = type;
}, DATA_DEADLINE_MS + 60_000);

afterAll(async () => {
  simulator?.stop();
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

const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);

/**
 * Opens the table view of the chart in `card` with the keyboard only: Tab from the card's heading
 * to its 'Show table' button, Enter. Returns the table's rows as text, keyed by the row header,
 * with the column headers.
 */
async function openTableByKeyboard(card: Locator, chartName: string) {
  // A click on the (not focusable) heading moves the point Tab starts from to the card.
  await card.getByRole('heading').first().click();
  const toggle = card.getByRole('button', { name: `Show table of ${chartName}` });
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  // The same button now hides the table, and says it is expanded.
  const hide = card.getByRole('button', { name: `Hide table of ${chartName}` });
  await expect.poll(() => isFocused(hide)).toBe(true);
  expect(await hide.getAttribute('aria-expanded')).toBe('true');
  const table = card.getByRole('table', { name: `Table of ${chartName}` });
  await table.waitFor();
  return readTable(table);
}

async function readTable(table: Locator) {
  return table.evaluate((element) => {
    const cells = (row: Element): string[] =>
      Array.from(row.querySelectorAll('th, td'), (cell) => (cell.textContent ?? '').trim());
    const [head, ...rows] = Array.from(element.querySelectorAll('tr'), cells);
    return { columns: head ?? [], rows };
  });
}

const columnSum = (rows: readonly string[][], index: number) =>
  rows.reduce((sum, row) => sum + Number((row[index] ?? '0').replace(/,/g, '')), 0);

/** What the tables show for a metric value: at most 2 decimals. */
const formatValue = (value: number) =>
  Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);

describe('chart table views', () => {
  it('on the dashboard, each chart’s table is reached by keyboard and lists its values', async () => {
    await signIn(page);
    await page.goto('/home');

    // Registrations: all the simulated devices registered today.
    const registrations = page.getByTestId('chart-registrations');
    await registrations.getByRole('img').waitFor();
    const reg = await openTableByKeyboard(registrations, 'Registrations');
    expect(reg.columns).toEqual(['Period', 'Registered devices', 'Registered users']);
    const now = new Date();
    const today = `${String(now.getUTCDate()).padStart(2, '0')} ${MONTHS[now.getUTCMonth()]}`;
    expect(reg.rows.find((row) => row[0] === today)?.[1]).toBe(String(NODES));
    expect(columnSum(reg.rows, 1)).toBe(NODES);

    // The fault card of a type with faults: as many devices as the API counts.
    const faults = page.getByTestId(`faults-${TYPE_KEY[faulty.type]}`);
    const title = (await faults.getByRole('heading').first().innerText()).trim();
    const fault = await openTableByKeyboard(faults, title);
    expect(fault.columns).toEqual(['Fault code', 'Devices']);
    expect(fault.rows.length).toBeGreaterThan(0);
    expect(columnSum(fault.rows, 1)).toBe(faulty.devices);
    await screenshot(page, 'a11y-dashboard-chart-tables');

    // The button hides the table again and says so.
    await page.keyboard.press('Enter');
    await expect.poll(() => faults.getByRole('table').count()).toBe(0);
  });

  it('on a device report, the timeline’s table has the month’s counts per log type', async () => {
    await signIn(page);
    await page.goto(`/home/diagnostics/report/${encodeURIComponent(nodeId)}`);
    const timeline = page.getByTestId('timeline');
    await timeline.getByTestId('timeline-chart').waitFor();
    const tz = await page.evaluate(() => -new Date().getTimezoneOffset() * 60 || 0);
    const bars = await api<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?node_id=${encodeURIComponent(nodeId)}&time=Month&tz=${tz}`,
    );
    const table = await openTableByKeyboard(timeline, 'Timeline');
    expect(table.columns).toEqual(['Date', ...LOG_COLUMNS]);
    expect(table.rows).toHaveLength(bars.data.length);
    LOG_TYPES.forEach((type, index) => {
      expect({ type, shown: columnSum(table.rows, index + 1) }).toEqual({
        type,
        shown: bars.data.reduce((sum, bar) => sum + bar[type], 0),
      });
    });
    await screenshot(page, 'a11y-timeline-table');
  });

  it('on the Multigraph, the table lists the points of the chart’s metrics', async () => {
    await signIn(page);
    // The chart's own answer: a second request a moment later has another window and buckets.
    const answer = page.waitForResponse(
      (response) => response.url().includes('/insights/v1/node/metric/list') && response.ok(),
    );
    await page.goto(`/home/diagnostics/multigraph1/${encodeURIComponent(nodeId)}`);
    const card = page.getByRole('region', { name: 'Multigraph', exact: true });
    await card.getByTestId('graph-chart').waitFor();
    const table = await openTableByKeyboard(card, 'Multigraph, Last 1 hour');

    // The series the page asked for: the node's first four metrics over the last hour.
    const asked = new URL((await answer).url());
    const list = (await (await answer).json()) as MetricListResponse;
    const meta = await api<MetricMetaResponse>(
      `/insights/v1/node/metric/meta?node_id=${encodeURIComponent(nodeId)}`,
    );
    expect(asked.searchParams.getAll('id')).toEqual(meta.metrics.slice(0, 4).map((m) => m.id));
    expect(Number(asked.searchParams.get('end')) - Number(asked.searchParams.get('start'))).toBe(
      3600,
    );
    expect(table.columns).toEqual([
      'Time',
      ...list.metrics.map((series) =>
        series.unit ? `${series.label} (${series.unit})` : series.label,
      ),
    ]);
    list.metrics.forEach((series, index) => {
      expect(series.points.length).toBeGreaterThan(0);
      const shown = table.rows.map((row) => row[index + 1]).filter((value) => value !== '—');
      const expected = series.points.map((point) => formatValue(point.val));
      // One row per distinct time: every point of the chart's answer is in the table.
      expect(shown.length).toBe(new Set(series.points.map((point) => point.ts)).size);
      expect({
        id: series.id,
        notInApi: shown.filter((value) => !expected.includes(value!)),
      }).toEqual({ id: series.id, notInApi: [] });
    });
    await screenshot(page, 'a11y-multigraph-table');
  });
});

// Deployment Settings' tables are checked the same way in phone-tables.e2e.test.ts:
// that page needs a customer deployment, this file a simulated fleet.
describe('tables that scroll sideways on a phone', () => {
  it('are named regions the keyboard focuses and scrolls', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);

    await page.goto(`/home/diagnostics/paramvalues/${encodeURIComponent(nodeId)}`);
    await page.getByTestId('variables').locator('tbody tr').first().waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    const variables = page.getByRole('region', { name: 'Variables', exact: true });
    await expectKeyboardScrollable(page, variables);
    await screenshot(page, 'a11y-variables-phone-scrolled');

    await page.goto(`/home/diagnostics/report/${encodeURIComponent(nodeId)}`);
    await page.getByTestId('log-row').first().waitFor();
    await page.getByRole('heading', { name: 'Logs', exact: true }).click();
    await expectKeyboardScrollable(page, page.getByRole('region', { name: 'Logs', exact: true }));

    // A chart's table with more columns than a phone shows.
    await page.goto(`/home/diagnostics/multigraph1/${encodeURIComponent(nodeId)}`);
    const card = page.getByRole('region', { name: 'Multigraph', exact: true });
    await card.getByTestId('graph-chart').waitFor();
    await card.getByRole('button', { name: /^Show table/ }).click();
    await expectKeyboardScrollable(
      page,
      card.getByRole('region', { name: 'Table of Multigraph, Last 1 hour' }),
    );
    await screenshot(page, 'a11y-multigraph-table-phone');
  });
});

describe('the open account menu', () => {
  it('draws no axe remark, best practices included', async () => {
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByRole('button', { name: /Account settings/ }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await page.waitForTimeout(300);
    await page.evaluate(AXE_SOURCE);
    const results = await page.evaluate(() =>
      (window as unknown as { axe: { run: (options: object) => Promise<AxeResults> } }).axe.run({
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] },
      }),
    );
    const inMenu = await menu.evaluate(
      (element, violations) =>
        violations
          .filter((violation) =>
            violation.selectors.some((selector) => {
              const node = document.querySelector(selector);
              return node !== null && element.contains(node);
            }),
          )
          .map((violation) => violation.id),
      results.violations.map((violation) => ({
        id: violation.id,
        selectors: violation.nodes.map((node) => node.target.join(' ')),
      })),
    );
    expect(inMenu).toEqual([]);
    await screenshot(page, 'a11y-account-menu-open');
  });
});
