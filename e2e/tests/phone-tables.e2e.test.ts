import { API_PATHS, PUSH_PATHS, SETTINGS_PATHS } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEPLOYMENT_LABELS } from '../../packages/web/src/features/deployment-settings/labels.js';
import { FAULT_LABELS } from '../../packages/web/src/features/faults/labels.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { certificate } from '../helpers/certificate.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { expectKeyboardScrollable } from '../helpers/keyboard.js';
import { signIn } from '../helpers/session.js';

/**
 * Tables on a phone (390 × 844). Deployment Settings: each tab's table that is wider than the
 * screen is a named region the keyboard reaches with Tab and scrolls with the arrow keys; the one
 * that fits (Deployment Details) is named too but adds no tab stop; and no tab makes the page
 * itself wider than the screen. Every table has a row: the settings are made through the API
 * first (the page needs a customer deployment). And a wide table with nothing to list keeps its
 * message in the part of the table that is on screen. The other screens' tables are checked in
 * chart-tables and long-values.
 */
const PHONE = { width: 390, height: 844 };
const POOL = '?email_mobile_userpool=true';

/** The tabs whose table scrolls sideways on a phone, with the table's region name. */
const SCROLLING_TABLES = [
  { tab: 'identity-providers', region: DEPLOYMENT_LABELS.identityProvidersTable },
  { tab: 'email-configurations', region: DEPLOYMENT_LABELS.senders },
  { tab: 'cognito', region: DEPLOYMENT_LABELS.appClientsHeading },
  { tab: 'licensing', region: DEPLOYMENT_LABELS.licenceTable },
  { tab: 'push-notifications', region: DEPLOYMENT_LABELS.mobilePlatformsHeading },
  { tab: 'backup-restore', region: DEPLOYMENT_LABELS.backedUpClientsTable },
] as const;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer({ DEPLOYMENT_MODE: 'customer' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  const token = await apiToken(server.url);
  const api = (method: string, path: string, body?: unknown) =>
    apiJson(server.url, token, method, path, body);
  await api('POST', `${API_PATHS.identityProvider}${POOL}`, {
    provider_type: 'Google',
    client_id: '240017-phone-check.apps.googleusercontent.com',
    client_secret: 'phone-check-secret-0001',
    callback_urls: [`${server.url}/socialauth`, 'https://fleet.example.com/socialauth'],
  });
  await api('PUT', `${API_PATHS.appClientBackupTake}${POOL}`, {});
  const licence = certificate('/CN=Fleetdeck Licence/O=Appliance Maker');
  await api('PUT', SETTINGS_PATHS.licenseFile, {
    file_name: 'fleetdeck-licence.pem',
    file_content_b64: Buffer.from(licence.cert).toString('base64'),
  });
  const apple = certificate(
    '/UID=com.fleetdeck.app/CN=Apple Development IOS Push Services: com.fleetdeck.app',
  );
  await api('POST', PUSH_PATHS.mobilePlatform, {
    platform: 'APNS_SANDBOX',
    ssl_certificate: apple.cert,
    private_key: apple.key,
  });
  context = await newContext(browser, server.url);
  page = await context.newPage();
  await page.setViewportSize(PHONE);
  await signIn(page);
}, 90_000);

afterAll(async () => {
  await context?.close();
  await closeBrowser?.();
  await server?.stop();
});

/** Opens a tab and waits for its table; focus then starts from the tab panel's heading. */
async function openTab(tab: string) {
  await page.goto(`/home/deployment-settings/?tab=${tab}`);
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('table').locator('tbody tr').first().waitFor();
  await panel.getByRole('heading', { level: 2 }).click();
  return panel;
}

/** How much wider than the window the page is (0: it fits). */
const pageOverflow = () =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('Deployment Settings on a phone', () => {
  beforeEach(async () => {
    expect(page.viewportSize()).toEqual(PHONE);
  });

  it.each(SCROLLING_TABLES)(
    'the $tab table is a named region the keyboard focuses and scrolls',
    async ({ tab, region: name }) => {
      const panel = await openTab(tab);
      const region = panel.getByRole('region', { name, exact: true });
      // The region holds the table it names.
      await region.getByRole('table').locator('tbody tr').first().waitFor();
      await expectKeyboardScrollable(page, region);
      expect(await pageOverflow()).toBe(0);
      await screenshot(page, `phone-deployment-${tab}`);
    },
  );

  it('the deployment details table fits the screen: a named region with no tab stop', async () => {
    const panel = await openTab('deployment-details');
    const region = panel.getByRole('region', {
      name: DEPLOYMENT_LABELS.deploymentDetailsTable,
      exact: true,
    });
    await region.getByRole('table').waitFor();
    const box = await region.evaluate((element) => ({
      inside: element.scrollWidth,
      shown: element.clientWidth,
      tabindex: element.getAttribute('tabindex'),
    }));
    expect(box.inside).toBeLessThanOrEqual(box.shown);
    expect(box.tabindex).toBeNull();
    // The values wrap inside the box instead of running out of it: the base URL included.
    const edge = await region.boundingBox();
    const value = await region.getByText(server.url, { exact: true }).boundingBox();
    expect(value!.x + value!.width).toBeLessThanOrEqual(edge!.x + edge!.width);
    expect(await pageOverflow()).toBe(0);
    await screenshot(page, 'phone-deployment-deployment-details');
  });
});

describe('a wide table with nothing to list, on a phone', () => {
  it('keeps the message of a fault code no device reports on screen, scrolled or not', async () => {
    // No device of this fleet reports anything: the list of devices with fault E1 is empty.
    await page.goto('/home/FaultList/ac/1');
    const region = page.getByRole('region', { name: FAULT_LABELS.devicesTable, exact: true });
    const message = region.getByTestId('fault-device-table-empty');
    await message.waitFor();
    // The table keeps its columns, so it is still wider than the phone and scrolls.
    await expectKeyboardScrollable(page, region);
    const inWindow = async () => {
      const box = await message.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
    };
    await region.evaluate((element) => element.scrollTo({ left: 0 }));
    await expect.poll(inWindow).toBe(true);
    await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(inWindow).toBe(true);
    await screenshot(page, 'phone-fault-devices-empty');
  });
});
