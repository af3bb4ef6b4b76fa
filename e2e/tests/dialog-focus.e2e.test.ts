import { type NodeRegistration } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { seedOtaFixture } from '../helpers/ota-fixture.js';
import { signIn } from '../helpers/session.js';

/**
 * Keyboard focus after a dialog closes: back on the button that opened it, not on <body>, for
 * every dialog that mounts when it opens (Add to Device Group, Start OTA, Cancel Job, Delete).
 */
const NODES: (NodeRegistration & { node_id: string })[] = Array.from({ length: 3 }, (_, i) => ({
  node_id: `fd-focus-00${i + 1}`,
  type: 'Refrigerator',
  model: 'RF-100',
  fw_version: '1.0.0',
  tags: [],
}));
const IMAGE_NAME = 'Focus test 1.1';
const JOB_NAME = 'Focus test job';

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
    image: { image_name: IMAGE_NAME, fw_version: '1.1.0', fill: 1 },
    group: { group_name: 'Focus bench' },
    jobName: JOB_NAME,
  }));
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

const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);

/**
 * Opens the dialog with `opener`, closes it with Escape or one of its buttons, and expects focus
 * back on `opener` (it is elsewhere while the dialog is open).
 */
async function expectFocusReturns(opener: Locator, closeWith: 'Escape' | { button: string }) {
  await opener.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await expect.poll(() => isFocused(opener)).toBe(false);
  if (closeWith === 'Escape') await page.keyboard.press('Escape');
  // From the keyboard: a picker's open list may cover the button from the mouse.
  else await dialog.getByRole('button', { name: closeWith.button, exact: true }).press('Enter');
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => isFocused(opener)).toBe(true);
}

describe('focus after a dialog closes', () => {
  it('returns to Add to Device Group on Devices and Graphs', async () => {
    for (const path of ['/home/nodes', '/home/metricss?type=Refrigerator']) {
      await page.goto(path);
      await page.getByLabel('Select fd-focus-001', { exact: true }).check();
      const opener = page.getByRole('button', { name: 'Add to Device Group', exact: true });
      await expectFocusReturns(opener, 'Escape');
      await expectFocusReturns(opener, { button: 'Cancel' });
    }
  });

  it('returns to Start OTA in the image list', async () => {
    await page.goto('/home/firmware-images');
    const opener = page.getByRole('button', { name: `Start OTA ${IMAGE_NAME}`, exact: true });
    await expectFocusReturns(opener, 'Escape');
    await expectFocusReturns(opener, { button: 'Cancel' });
  });

  it('returns to Start OTA and Delete on the image details', async () => {
    await page.goto(`/home/image-details/${imageId}`);
    const fields = page.getByTestId('image-fields');
    await expectFocusReturns(fields.getByRole('button', { name: 'Start OTA' }), 'Escape');
    await expectFocusReturns(fields.getByRole('button', { name: 'Delete' }), 'Escape');
    await expectFocusReturns(fields.getByRole('button', { name: 'Delete' }), { button: 'Cancel' });
  });

  it('returns to Cancel Job in the job list and on the job details', async () => {
    await page.goto('/home/ota-jobs/');
    const row = page.getByRole('row').filter({ hasText: JOB_NAME });
    await expectFocusReturns(row.getByRole('button', { name: 'Cancel Job' }), 'Escape');
    await expectFocusReturns(row.getByRole('button', { name: 'Cancel Job' }), {
      button: 'Keep job',
    });

    await page.goto(`/home/job-details/${jobId}`);
    const toolbar = page.getByTestId('job-toolbar');
    await expectFocusReturns(toolbar.getByRole('button', { name: 'Cancel Job' }), 'Escape');
  });

  it('returns to Delete on the group details', async () => {
    await page.goto(`/home/node-groups/${groupId}`);
    const opener = page.getByTestId('group-fields').getByRole('button', { name: 'Delete' });
    await expectFocusReturns(opener, 'Escape');
    await expectFocusReturns(opener, { button: 'Cancel' });
  });
});
