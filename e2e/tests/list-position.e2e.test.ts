import type { ImageList, JobList, NodeRegistration } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * The paged lists besides Devices keep their position in the address (lib/list-position.ts), so
 * Back from an item returns to the page it was opened from: 12 firmware images, 12 OTA jobs (one
 * per node) and 12 device groups, more than one page of each.
 */
const COUNT = 12;
const NODES: (NodeRegistration & { node_id: string })[] = Array.from({ length: COUNT }, (_, i) => ({
  node_id: `fd-pos-${String(i + 1).padStart(3, '0')}`,
  type: 'Refrigerator',
  model: 'RF-200',
  fw_version: '1.0.0',
  tags: [],
}));

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;
/** Ids in the order the lists show them (newest first for images and jobs, by id for groups). */
let imageIds: string[];
let jobIds: string[];
let groupIds: string[];

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  const token = await apiToken(server.url);
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiJson<T>(server.url, token, method, path, body);
  await api('POST', '/v1/admin/node_ids', { nodes: NODES });
  for (let i = 1; i <= COUNT; i++) {
    const { ota_image_id: imageId } = await api<{ ota_image_id: string }>(
      'POST',
      '/v1/admin/otaimage',
      {
        image_name: `Position image ${String(i).padStart(2, '0')}`,
        type: 'Refrigerator',
        model: 'RF-200',
        fw_version: `2.${i}.0`,
        base64_fwimage: Buffer.alloc(512, i).toString('base64'),
      },
    );
    await api('POST', '/v1/admin/otajob', {
      ota_job_name: `Position rollout ${String(i).padStart(2, '0')}`,
      ota_image_id: imageId,
      nodes: [NODES[i - 1]?.node_id],
    });
    await api('POST', '/v1/admin/node_group', {
      group_name: `Position group ${String(i).padStart(2, '0')}`,
    });
  }
  const images = await api<ImageList>('GET', '/v1/admin/otaimage?num_records=100');
  imageIds = images.ota_images.map((image) => image.ota_image_id);
  const jobs = await api<JobList>('GET', '/v1/admin/otajob?num_records=100');
  jobIds = jobs.otaJobs.map((job) => job.ota_job_id);
  const groups = await api<{ groups: { group_id: string }[] }>(
    'GET',
    '/v1/admin/node_group?num_records=100',
  );
  groupIds = groups.groups.map((group) => group.group_id);
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

const pageStatus = () => page.getByTestId('node-page-status');
const button = (name: string) => page.getByRole('button', { name, exact: true });
const label = (text: string) => page.getByLabel(text, { exact: true });
const historyLength = () => page.evaluate(() => history.length);

/** The ids of a table's rows, read from the row attribute that carries them. */
async function rowIds(table: Locator, attribute: string): Promise<string[]> {
  return table
    .locator(`tbody tr[${attribute}]`)
    .evaluateAll((rows, name) => rows.map((row) => row.getAttribute(name) ?? ''), attribute);
}

async function waitForRows(table: Locator, attribute: string, expected: string[]) {
  await expect.poll(() => rowIds(table, attribute), { timeout: 10_000 }).toEqual(expected);
}

/**
 * Waits until the item's page has taken the list's place: its `testId` shows and the list is gone
 * (a Back while the next page still renders would find the list as it was, never unmounted).
 */
async function waitForDetails(url: RegExp, testId: string, list: Locator) {
  await page.waitForURL(url);
  await page.getByTestId(testId).waitFor();
  await expect.poll(() => list.count()).toBe(0);
}

describe('list positions in the address', () => {
  it('firmware images: Back from an image returns to its page, page size and search', async () => {
    const table = page.getByTestId('image-table');
    const images = (from: number, to: number) => imageIds.slice(from, to);
    await page.goto('/home/firmware-images');
    await waitForRows(table, 'data-image-id', images(0, 10));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 2');

    // A page size starts at page 1; Next replaces the address rather than adding to history.
    await label('Rows per page').selectOption('5');
    await waitForRows(table, 'data-image-id', images(0, 5));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 3');
    const entries = await historyLength();
    await button('Next').click();
    await waitForRows(table, 'data-image-id', images(5, 10));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 3');
    await expect(historyLength()).resolves.toBe(entries);
    expect(new URL(page.url()).searchParams.get('size')).toBe('5');

    const opened = table.locator(`tr[data-image-id="${images(5, 6)[0]}"]`).getByRole('link');
    await opened.click();
    await waitForDetails(/\/home\/image-details\//, 'image-fields', table);
    await page.goBack();
    await page.waitForURL(/\/home\/firmware-images\?/);
    await waitForRows(table, 'data-image-id', images(5, 10));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 3');
    await expect(label('Rows per page').inputValue()).resolves.toBe('5');
    await screenshot(page, 'list-position-images-after-back');
    await button('Prev').click();
    await waitForRows(table, 'data-image-id', images(0, 5));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 3');

    // A search lives in the address too, and starts again at page 1.
    await button('Next').click();
    await waitForRows(table, 'data-image-id', images(5, 10));
    const search = label('Search');
    await search.fill('Position image');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('Position image');
    await waitForRows(table, 'data-image-id', images(0, 5));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 3');
    await button('Next').click();
    await waitForRows(table, 'data-image-id', images(5, 10));
    await table
      .locator(`tr[data-image-id="${images(6, 7)[0]}"]`)
      .getByRole('link')
      .click();
    await waitForDetails(/\/home\/image-details\//, 'image-fields', table);
    await page.goBack();
    await waitForRows(table, 'data-image-id', images(5, 10));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 3');
    await expect(search.inputValue()).resolves.toBe('Position image');
  });

  it('OTA jobs: Back from a job returns to page 2 with its search', async () => {
    const table = page.getByTestId('job-table');
    await page.goto('/home/ota-jobs');
    await waitForRows(table, 'data-job-id', jobIds.slice(0, 10));
    const search = label('Search by job name');
    await search.fill('Position rollout');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('search'))
      .toBe('Position rollout');
    await button('Next').click();
    await waitForRows(table, 'data-job-id', jobIds.slice(10, 12));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 2');

    await table.locator(`tr[data-job-id="${jobIds[10]}"]`).getByRole('link').first().click();
    await waitForDetails(/\/home\/job-details\//, 'job-fields', table);
    await page.goBack();
    await page.waitForURL(/\/home\/ota-jobs\/?\?/);
    await waitForRows(table, 'data-job-id', jobIds.slice(10, 12));
    await expect(pageStatus().innerText()).resolves.toBe('Page 2 of 2');
    await expect(search.inputValue()).resolves.toBe('Position rollout');
    await screenshot(page, 'list-position-jobs-after-back');
    await button('Prev').click();
    await waitForRows(table, 'data-job-id', jobIds.slice(0, 10));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 2');
  });

  it('Device Groups: Back from a group returns to page 2', async () => {
    const table = page.getByTestId('group-table');
    await page.goto('/home/node-groups');
    await waitForRows(table, 'data-group-id', groupIds.slice(0, 10));
    await button('Next').click();
    await waitForRows(table, 'data-group-id', groupIds.slice(10));
    const status = `Page 2 of ${Math.ceil(groupIds.length / 10)}`;
    await expect(pageStatus().innerText()).resolves.toBe(status);
    await table.locator(`tr[data-group-id="${groupIds[10]}"]`).getByRole('link').click();
    await waitForDetails(/\/home\/node-groups\/.+/, 'group-fields', table);
    await page.goBack();
    await waitForRows(table, 'data-group-id', groupIds.slice(10));
    await expect(pageStatus().innerText()).resolves.toBe(status);
  });

  it('reads a malformed or stale address as page 1 at the default size, without an error', async () => {
    const images = page.getByTestId('image-table');
    await page.goto('/home/firmware-images?size=7&cursor=%3Cnot-an-id%3E');
    await waitForRows(images, 'data-image-id', imageIds.slice(0, 10));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 2');
    await expect(label('Rows per page').inputValue()).resolves.toBe('10');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);

    // A well-formed cursor of a job that does not exist: the page is gone, page 1 shows.
    const jobs = page.getByTestId('job-table');
    await page.goto('/home/ota-jobs?size=5&cursor=no-such-job');
    await waitForRows(jobs, 'data-job-id', jobIds.slice(0, 5));
    await expect(pageStatus().innerText()).resolves.toBe('Page 1 of 3');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('cursor')).toEqual([]);
    expect(new URL(page.url()).searchParams.get('size')).toBe('5');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  });
});
