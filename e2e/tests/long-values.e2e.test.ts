import { MESSAGES, type NodeRegistration } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { seedOtaFixture } from '../helpers/ota-fixture.js';
import { signIn } from '../helpers/session.js';

/**
 * Names and descriptions as long as the API allows, in one word (the widest letter, 'W'): lists
 * and details wrap them instead of growing sideways, on a desktop and on a phone. And a details
 * request that fails shows its error, not skeletons that never finish.
 */
const LONG_NAME = 'W'.repeat(64);
const LONG_DESCRIPTION = 'D'.repeat(500);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const NODES: (NodeRegistration & { node_id: string })[] = [
  {
    node_id: 'fd-long-001',
    type: 'Air Conditioner',
    model: 'AC-100',
    fw_version: '1.0.0',
    tags: [],
  },
];

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;
let imageId: string;
let groupId: string;
let jobId: string;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  ({ imageId, groupId, jobId } = await seedOtaFixture(server.url, {
    nodes: NODES,
    image: { image_name: LONG_NAME, fw_version: '2.0.0', fill: 2 },
    group: { group_name: LONG_NAME, description: LONG_DESCRIPTION },
    jobName: LONG_NAME,
  }));
  // A fault image with the same name, for the Fault List.
  await apiJson(server.url, await apiToken(server.url), 'POST', '/v1/admin/otaimage', {
    image_name: LONG_NAME,
    type: 'Air Conditioner',
    fw_version: '2.0.1',
    fault_id: 'E5',
    base64_fwimage: Buffer.alloc(1024, 3).toString('base64'),
  });
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

/** How far the page reaches past the right edge of the window (0 when it fits). */
const overflow = () =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The locator lies wholly inside the window, left to right. */
async function onScreen(locator: Locator, width: number): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

describe('long names in the lists at 1440x900', () => {
  it('wraps a 64-character image name, so the row keeps Start OTA and Archive on screen', async () => {
    await page.setViewportSize(DESKTOP);
    for (const path of ['/home/firmware-images', '/home/Fault-images']) {
      await page.goto(path);
      const row = page.locator(`tr[data-image-id]`).first();
      await row.getByRole('link', { name: LONG_NAME }).waitFor();
      for (const button of await row.getByRole('button').all())
        await expect(onScreen(button, DESKTOP.width)).resolves.toBe(true);
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    }
    await page.goto('/home/firmware-images');
    await page.locator(`tr[data-image-id="${imageId}"]`).waitFor();
    await screenshot(page, 'long-image-name-list');
  });

  it('keeps Cancel Job and the group description on screen beside 64-character names', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/home/ota-jobs/');
    const row = page.getByRole('row').filter({ hasText: LONG_NAME });
    await expect(
      onScreen(row.getByRole('button', { name: 'Cancel Job' }), DESKTOP.width),
    ).resolves.toBe(true);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);

    await page.goto('/home/node-groups/');
    await page.locator(`tr[data-group-id="${groupId}"]`).waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
  });
});

describe('long values on the details screens', () => {
  it('wraps the group name and a 500-character description on a desktop and a phone', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`/home/node-groups/${groupId}`);
      const fields = page.getByTestId('group-fields');
      await fields.getByText(LONG_DESCRIPTION).waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(
        onScreen(page.getByRole('heading', { level: 1, name: LONG_NAME }), viewport.width),
      ).resolves.toBe(true);
      await expect(onScreen(fields.getByText(LONG_NAME), viewport.width)).resolves.toBe(true);
      // The group has no nodes: the table's empty message is on screen, not centred across the
      // part of the (wider) table a phone scrolls to.
      await expect(onScreen(page.getByTestId('node-table-empty'), viewport.width)).resolves.toBe(
        true,
      );
    }
    await screenshot(page, 'long-group-details-phone');
  });

  it('wraps the job name on a phone', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`/home/job-details/${jobId}`);
    const fields = page.getByTestId('job-fields');
    await fields.getByText(LONG_NAME).waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await expect(onScreen(fields.getByText(LONG_NAME), PHONE.width)).resolves.toBe(true);
    await expect(
      onScreen(page.getByRole('heading', { level: 1, name: LONG_NAME }), PHONE.width),
    ).resolves.toBe(true);
  });

  it('keeps each Copy button whole on a phone and wraps the hash beside it', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`/home/image-details/${imageId}`);
    const copies = page.getByTestId('image-fields').getByRole('button', { name: 'Copy' });
    await expect.poll(() => copies.count()).toBe(3); // image id, MD5, SHA-256
    for (const copy of await copies.all()) {
      // A squeezed button clips its label: some part of it is wider than the box it is shown in.
      const clipped = await copy.evaluate((button) =>
        [button, ...Array.from(button.querySelectorAll('*'))].some(
          (element) => element.scrollWidth > element.clientWidth + 1,
        ),
      );
      expect(clipped).toBe(false);
      await expect(onScreen(copy, PHONE.width)).resolves.toBe(true);
    }
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await screenshot(page, 'long-image-details-phone');
  });
});

describe('a details request that fails', () => {
  it('shows the error and Try again without loading skeletons, then the job after a retry', async () => {
    await page.route('**/v1/admin/otajob?ota_job_id=*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'failure', description: MESSAGES.somethingWentWrong }),
      }),
    );
    await page.goto(`/home/job-details/${jobId}`);
    const alert = page.getByRole('alert').filter({ hasText: MESSAGES.somethingWentWrong });
    await alert.waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('job-fields').count()).resolves.toBe(0);
    await expect(page.locator('.mantine-Skeleton-root').count()).resolves.toBe(0);
    await screenshot(page, 'job-details-failed');

    await page.unroute('**/v1/admin/otajob?ota_job_id=*');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('job-fields').getByText(LONG_NAME).waitFor();
    await expect(alert.count()).resolves.toBe(0);
  });
});
