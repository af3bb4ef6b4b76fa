import { LABELS } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * Deployment Settings as a whole (access §2): a customer deployment's administrator walks all ten
 * side tabs in the order the page lists them, in both user pools. Each tab must finish loading
 * without an error and offer something to read or change. The per-area suites (deployment-ops,
 * identity-settings, accounts, user-admin) test what each tab's settings do.
 */
const EXPECTED_ORDER = [
  LABELS.tabEmailConfigurations,
  LABELS.tabUpgradeApis,
  LABELS.tabPrivacyPolicyAndTerms,
  LABELS.tabLicensingService,
  LABELS.tabPushNotifications,
  LABELS.tabMfaConfigurations,
  LABELS.tabIdentityProviders,
  LABELS.tabCognitoConfigurations,
  LABELS.tabDeploymentDetails,
  LABELS.tabBackupRestore,
];

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer({ DEPLOYMENT_MODE: 'customer' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  context = await newContext(browser, server.url);
  page = await context.newPage();
  await signIn(page);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await closeBrowser?.();
  await server?.stop();
});

/** Waits until the open tab has rendered its screen: no spinner, no error, some control. */
async function expectTabReady(label: string): Promise<void> {
  const panel = page.getByRole('tabpanel', { name: label });
  await expect.poll(() => panel.getByRole('heading', { name: label }).count()).toBeGreaterThan(0);
  await expect
    .poll(async () => panel.locator('.mantine-Loader-root').count(), { timeout: 15_000 })
    .toBe(0);
  await expect
    .poll(async () => panel.locator('button, input, textarea, table, dl').count())
    .toBeGreaterThan(0);
  expect(await panel.getByText('Something went wrong!').count()).toBe(0);
}

describe('Deployment Settings', () => {
  it('lists the ten tabs, the pool-dependent ones after the others, Email & Phone by default', async () => {
    await page.goto('/home/deployment-settings/');
    await expect.poll(() => page.getByRole('tab').allInnerTexts()).toEqual(EXPECTED_ORDER);
    expect(await page.getByRole('radio', { name: LABELS.emailPhoneUserPool }).isChecked()).toBe(
      true,
    );
    expect(await page.getByRole('radio', { name: LABELS.emailUserPool }).isChecked()).toBe(false);
  });

  it('opens every tab in the Email & Phone User Pool', async () => {
    for (const [index, label] of EXPECTED_ORDER.entries()) {
      await page.getByRole('tab', { name: label }).click();
      await expectTabReady(label);
      if (label === LABELS.tabDeploymentDetails) {
        // The embedded broker runs on a free port here (MQTT_PORT=0): the real one is shown.
        const details = await page.getByRole('tabpanel', { name: label }).innerText();
        expect(details).toMatch(/mqtt:\/\/127\.0\.0\.1:[1-9]\d*/);
      }
      await screenshot(page, `deployment-settings-${String(index + 1).padStart(2, '0')}`);
    }
  }, 120_000);

  it('opens the pool-dependent tabs in the Email User Pool, keeping the choice in the URL', async () => {
    // The choice lives in the URL: the radio shows it once the router has committed the change.
    const emailPool = page.getByRole('radio', { name: LABELS.emailUserPool });
    await emailPool.click();
    await page.waitForURL(/pool=email/);
    await expect.poll(() => emailPool.isChecked()).toBe(true);
    for (const label of EXPECTED_ORDER.slice(6)) {
      await page.getByRole('tab', { name: label }).click();
      await expectTabReady(label);
    }
    await screenshot(page, 'deployment-settings-email-pool');
    await page.reload();
    expect(await page.getByRole('radio', { name: LABELS.emailUserPool }).isChecked()).toBe(true);
    await expectTabReady(LABELS.tabBackupRestore);
  }, 120_000);
});
