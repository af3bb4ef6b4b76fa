import { LABELS, ROLE_PERMISSIONS } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
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

describe('Deployment Settings access', () => {
  it('sends a signed-in user without the admin permission to change-password', async () => {
    // An admin of the fleet, but without the "admin permission" (contract roles.ts): the hardest
    // case, since the role's name suggests otherwise and it may open the dashboard.
    expect(ROLE_PERMISSIONS.admin).not.toContain('admin');
    const userName = 'fleet-admin@fleetdeck.test';
    const password = 'Copper-Kettle-2031';
    const created = await fetch(`${server.url}/v1/admin/user2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: await apiToken(server.url) },
      body: JSON.stringify({ user_name: userName, password, roles: ['admin'] }),
    });
    expect(created.status, await created.text()).toBe(201);

    const otherContext = await newContext(browser, server.url);
    try {
      const other = await otherContext.newPage();
      await signIn(other, userName, password);
      await other.goto('/home/deployment-settings/');
      await other.waitForURL(/\/home\/change-password$/);
      await other.getByRole('heading', { name: LABELS.userSettings }).waitFor();
      await other.getByText(`Signed in as ${userName}`).waitFor();
      expect(await other.getByRole('tab', { name: LABELS.tabEmailConfigurations }).count()).toBe(0);
      await screenshot(other, 'deployment-settings-forbidden-redirect');
    } finally {
      await otherContext.close();
    }
    // The administrator still gets in.
    await page.goto('/home/deployment-settings/');
    await page.getByRole('tab', { name: LABELS.tabEmailConfigurations }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/home/deployment-settings/');
  });
});
