import type {
  LogByIntervalResponse,
  LogCountResponse,
  LogListResponse,
  MetricMetaResponse,
  NodeInfo,
} from '@fleetdeck/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { startSimulator, type RunningSimulator } from '../helpers/simulator.js';

const NODES = 6;
/** Seconds between a node's diagnostics reports: short, so every node has logs and metrics quickly. */
const DIAG_INTERVAL_SECONDS = '5';
const DIAGNOSTICS_DEADLINE_MS = 90_000;
/**
 * The timeline's plot area in pixels from the chart's edges (TIMELINE_GRID in
 * packages/web/src/features/diagnostics/model/chart-options.ts), to find a bar on the canvas.
 */
const TIMELINE_GRID = { left: 44, right: 12, top: 36, bottom: 24 };
const LOG_TYPES = ['crash', 'reboot', 'error', 'warning', 'event'] as const;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let simulator: RunningSimulator | undefined;
let token: string;
/** The simulated node with the most log entries (and some metrics). */
let nodeId: string;

const api = async <T>(url: string): Promise<T> => {
  const response = await fetch(`${server.url}${url}`, { headers: { authorization: token } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
};

const total = (counts: Record<(typeof LOG_TYPES)[number], number>) =>
  LOG_TYPES.reduce((sum, type) => sum + counts[type], 0);

/** The node with the most log entries this month that also describes metrics, once there is one. */
async function busiestNode(ids: readonly string[]): Promise<string | undefined> {
  let best: { id: string; logs: number } | undefined;
  for (const id of ids) {
    const query = `node_id=${encodeURIComponent(id)}`;
    const counts = await api<LogCountResponse>(`/insights/v1/node/log/count?${query}`).catch(
      () => undefined,
    );
    if (!counts || total(counts) === 0) continue;
    const meta = await api<MetricMetaResponse>(`/insights/v1/node/metric/meta?${query}`);
    if (meta.metrics.length === 0) continue;
    if (best === undefined || total(counts) > best.logs) best = { id, logs: total(counts) };
  }
  return best?.id;
}

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  simulator = await startSimulator(server, NODES, [
    '--diag-interval',
    DIAG_INTERVAL_SECONDS,
    '--diag-crash-rate',
    '0.3',
  ]);
  token = await apiToken(server.url);
  const { node_info: nodes } = await api<{ node_info: NodeInfo[] }>(
    `/v1/admin/nodes?num_records=${NODES}`,
  );
  const ids = nodes.map((node) => node.node_id);
  const deadline = Date.now() + DIAGNOSTICS_DEADLINE_MS;
  for (;;) {
    const found = await busiestNode(ids);
    if (found) {
      nodeId = found;
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`no node sent diagnostics in time:\n${simulator.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
});

afterAll(async () => {
  simulator?.stop();
  await closeBrowser?.();
  await server?.stop();
});

/** The number shown for one log type in the report's counts. */
const shownCount = (page: Page, type: string) =>
  page
    .getByTestId(`count-${type}-value`)
    .innerText()
    .then((text) => Number(text.trim()));

describe('diagnostics of a simulated appliance', () => {
  it('shows the report, opens a day from the month timeline, and remembers a graph', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);

    // Device Report: info, counts and the log list of the month.
    await page.goto(`/home/diagnostics/report/${encodeURIComponent(nodeId)}`);
    await page.getByRole('heading', { name: `Device Id: ${nodeId}` }).waitFor();
    await page.getByTestId('count-event-value').waitFor();
    const counts = await Promise.all(LOG_TYPES.map((type) => shownCount(page, type)));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    await page.getByTestId('log-row').first().waitFor();
    expect(await page.getByTestId('log-row').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('radio', { name: 'Month' }).isChecked()).toBe(true);
    await page.getByTestId('timeline-chart').waitFor();
    await screenshot(page, 'diagnostics-report-month');

    // A click on the busiest bar of the month opens that day.
    const tz = await page.evaluate(() => -new Date().getTimezoneOffset() * 60 || 0);
    const bars = await api<LogByIntervalResponse>(
      `/insights/v1/node/log/byinterval/count?node_id=${encodeURIComponent(nodeId)}&time=Month&tz=${tz}`,
    );
    const busiest = bars.data.reduce(
      (best, bar, i) => (total(bar) > total(bars.data[best] ?? bar) ? i : best),
      0,
    );
    const box = await page.getByTestId('timeline-chart').boundingBox();
    if (!box) throw new Error('the timeline has no box');
    const slot = (box.width - TIMELINE_GRID.left - TIMELINE_GRID.right) / bars.data.length;
    await page.mouse.click(
      box.x + TIMELINE_GRID.left + (busiest + 0.5) * slot,
      box.y + box.height - TIMELINE_GRID.bottom - 3,
    );
    await page.waitForURL(/interval=Day/);
    expect(new URL(page.url()).searchParams.get('day')).toBe(String(bars.intervals[busiest]));
    await expect.poll(() => page.getByRole('radio', { name: 'Day' }).isChecked()).toBe(true);
    await page.getByTestId('log-row').first().waitFor();
    await page.getByTestId('timeline-chart').waitFor();
    await screenshot(page, 'diagnostics-report-day');

    // Graphs: pick a metric, reload, and find it still chosen.
    const meta = await api<MetricMetaResponse>(
      `/insights/v1/node/metric/meta?node_id=${encodeURIComponent(nodeId)}`,
    );
    const metric = meta.metrics[0];
    if (!metric) throw new Error('the node describes no metric');
    const optionName = metric.unit ? `${metric.label} (${metric.unit})` : metric.label;
    await page.getByRole('tab', { name: 'Graphs' }).click();
    await page.waitForURL(/\/home\/diagnostics\/metrics\//);
    const graph = page.getByTestId('graph-1');
    await graph.getByRole('combobox', { name: 'Metrics' }).click();
    await page.getByRole('option', { name: optionName, exact: true }).click();
    await page.keyboard.press('Escape');
    await graph.getByTestId('graph-chart').waitFor({ timeout: 15_000 });
    await screenshot(page, 'diagnostics-graphs');

    await page.reload();
    await page.getByTestId('graph-1').waitFor();
    await expect
      .poll(() => page.getByTestId('graph-1').getByText(optionName, { exact: true }).count())
      .toBeGreaterThan(0);
    await page.getByTestId('graph-1').getByTestId('graph-chart').waitFor({ timeout: 15_000 });

    // Variables: the tree with values.
    await page.getByRole('tab', { name: 'Variables' }).click();
    await page.waitForURL(/\/home\/diagnostics\/paramvalues\//);
    await page.getByTestId('variables').or(page.getByTestId('variables-empty')).waitFor();
    await screenshot(page, 'diagnostics-variables');
    await context.close();
  });

  it('shows a crashed node’s backtrace as a table', async () => {
    const ids = (
      await api<{ node_info: NodeInfo[] }>(`/v1/admin/nodes?num_records=${NODES}`)
    ).node_info.map((node) => node.node_id);
    // A node whose first log page (what the report opens on) holds a crash with a backtrace.
    let crashed: string | undefined;
    const deadline = Date.now() + DIAGNOSTICS_DEADLINE_MS;
    while (!crashed) {
      for (const id of ids) {
        const page = await api<LogListResponse>(
          `/insights/v1/node/log/list?node_id=${encodeURIComponent(id)}`,
        ).catch(() => undefined);
        const crash = page?.list.find((entry) => entry.type === 'crash');
        if (crash?.type === 'crash' && crash.data.backtrace.length > 0) crashed = id;
      }
      if (!crashed && Date.now() > deadline) throw new Error('no simulated node crashed in time');
      if (!crashed) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`/home/diagnostics/report/${encodeURIComponent(crashed)}`);
    await expect.poll(() => shownCount(page, 'crash'), { timeout: 15_000 }).toBeGreaterThan(0);
    const backtrace = page.getByTestId('backtrace').first();
    await backtrace.waitFor({ timeout: 15_000 });
    expect(await backtrace.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'diagnostics-crash');
    await context.close();
  });
});
