import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES, SETTINGS_PATHS } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { certificate } from '../helpers/certificate.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { copyWebBuild } from '../helpers/web-copy.js';

/**
 * The operations tabs of Deployment Settings against a real server: Upgrade APIs, Privacy Policy
 * and Terms (and the sign-in page's links), Licensing Service, Push Notifications, and the
 * dashboard update modal. The server serves a copy of the web build, so the test can make it
 * "newer" than the open tab by rewriting that copy's version.json.
 */
const SHOTS = '/tmp/shots-ops';

let server: RunningServer;
let token: string;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;
let webCopy: string;
let removeWebCopy: (() => void) | undefined;
let builtVersion: string;

async function api(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return JSON.parse(await response.text()) as unknown;
}

const shot = async (name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
};
const toast = (text: string) =>
  page.locator('.mantine-Notification-root').getByText(text, { exact: true });
const openTab = async (tab: string, heading: string) => {
  await page.goto(`/home/deployment-settings/?tab=${tab}`);
  await page
    .getByRole('tabpanel', { name: heading })
    .getByRole('heading', { name: heading })
    .waitFor();
};

beforeAll(async () => {
  ({ dir: webCopy, remove: removeWebCopy } = copyWebBuild());
  builtVersion = (
    JSON.parse(fs.readFileSync(path.join(webCopy, 'version.json'), 'utf8')) as { version: string }
  ).version;
  // Deployment Settings is for customer admins (access §6): the customer-deployment mode.
  server = await startServer({ WEB_DIST_DIR: webCopy, DEPLOYMENT_MODE: 'customer' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  token = await apiToken(server.url);
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  removeWebCopy?.();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
  await signIn(page);
});
afterEach(async () => {
  await context.close();
});

describe('Deployment Settings: operations tabs', () => {
  it('Upgrade APIs says what the server did', async () => {
    await openTab('upgrade-apis', 'Upgrade APIs');
    await page.getByRole('button', { name: 'Upgrade APIs', exact: true }).click();
    const result = page.getByTestId('upgrade-result');
    await result
      .getByText(
        /^Applied 0 migration\(s\); configuration generation \d+; reloaded: push notifications, node automations\.$/,
      )
      .waitFor();
    await shot('upgrade-apis');
  });

  it('edits the Privacy Policy, shows it on the page the sign-in page links to, and deletes it; the Terms of Use too', async () => {
    await openTab('privacy-terms', 'Privacy Policy and Terms');
    const privacy = page.getByTestId('terms-privacy_policy');
    const terms = page.getByTestId('terms-terms_of_use');
    expect(await privacy.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    expect(await terms.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await shot('privacy-terms-empty');

    // Before anything is published the sign-in page's links lead to a friendly notice.
    const visitor = await newContext(browser, server.url);
    const login = await visitor.newPage();
    await login.goto('/login');
    // The live page, not the inert static shell (whose links are hidden from the accessibility tree).
    await login.getByRole('button', { name: 'Sign in' }).waitFor();
    const links = login.getByTestId('policy-links');
    await expect(login.getByRole('link', { name: 'Privacy Policy' }).count()).resolves.toBe(1);
    await expect(login.getByRole('link', { name: 'Terms of Service' }).count()).resolves.toBe(1);
    await links.getByRole('link', { name: 'Terms of Service' }).click();
    await login.waitForURL(/\/terms-of-service$/);
    await login.getByTestId('policy-not-published').waitFor();
    await login.getByText('No Terms of Service has been published yet').waitFor();
    await login.getByRole('link', { name: 'Back to Login' }).click();
    await login.waitForURL(/\/login$/);

    await privacy.getByRole('button', { name: 'Add' }).click();
    await privacy
      .getByLabel('Privacy Policy (HTML or plain text)')
      .fill(
        '<h1>Privacy</h1><p>We keep what the appliances need.</p><script>parent.document.title="owned"</script>',
      );
    await shot('privacy-terms-edit');
    await privacy.getByRole('button', { name: 'Save' }).click();
    await toast('Privacy Policy updated successfully').waitFor();
    await privacy.getByText('We keep what the appliances need.', { exact: false }).waitFor();
    expect(await privacy.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(false);
    await shot('privacy-terms-saved');

    // A visitor follows the sign-in page's one Privacy Policy link to the published document,
    // shown in a sandbox where its script never runs, with a link to the public file.
    await links.getByRole('link', { name: 'Privacy Policy' }).click();
    await login.waitForURL(/\/privacy-policy$/);
    const frame = login.frameLocator('iframe[data-testid="policy-document"]');
    await frame.getByText('We keep what the appliances need.').waitFor();
    expect(await login.title()).toBe('Privacy Policy · Fleetdeck');
    const file = login.getByRole('link', { name: 'Open as a separate page' });
    expect(await file.getAttribute('href')).toMatch(/\/v1\/terms_policy\/privacy_policy\?v=\d+$/);
    await login.screenshot({ path: path.join(SHOTS, 'privacy-policy-page.png'), fullPage: true });
    const served = await fetch(`${server.url}/v1/terms_policy/privacy_policy`);
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    await visitor.close();

    await privacy.getByRole('button', { name: 'Delete' }).click();
    await toast('Privacy Policy deleted successfully').waitFor();
    await privacy.getByText('No Privacy Policy yet.', { exact: false }).waitFor();

    // The Terms of Use the same way, with their own toasts.
    await terms.getByRole('button', { name: 'Add' }).click();
    await terms
      .getByLabel('Terms of Use (HTML or plain text)')
      .fill('<h1>Terms</h1><p>Use the appliances as the manual says.</p>');
    await terms.getByRole('button', { name: 'Save' }).click();
    await toast(MESSAGES.termsOfUseUpdated).waitFor();
    await terms.getByText('Use the appliances as the manual says.', { exact: false }).waitFor();
    await screenshot(page, 'ops-terms-of-use-saved');
    const savedTerms = await fetch(`${server.url}/v1/terms_policy/terms_of_use`);
    expect(savedTerms.status).toBe(200);
    expect(await savedTerms.text()).toContain('Use the appliances as the manual says.');
    await terms.getByRole('button', { name: 'Delete' }).click();
    await toast(MESSAGES.termsOfUseDeleted).waitFor();
    await terms.getByText('No Terms of Use yet.', { exact: false }).waitFor();
    expect(await terms.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
  });

  it('uploads a .pem licence and refuses a file that is not PEM', async () => {
    await openTab('licensing', 'Licensing Service');
    await page.getByText('No licence file uploaded yet.').waitFor();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-e2e-lic-'));
    const bogus = path.join(dir, 'bogus.pem');
    fs.writeFileSync(bogus, 'this is not a certificate');
    await page.locator('input[type="file"]').setInputFiles(bogus);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText(/not a valid PEM file/).waitFor();
    await shot('licensing-refused');

    const good = path.join(dir, 'fleetdeck-licence.pem');
    fs.writeFileSync(good, certificate('/CN=Fleetdeck Licence/O=Appliance Maker').cert);
    await page.locator('input[type="file"]').setInputFiles(good);
    await page.getByRole('button', { name: 'Upload' }).click();
    await toast('License file is uploaded successfully.').waitFor();
    const table = page.getByRole('table', { name: 'Current licence file' });
    await table.getByText('fleetdeck-licence.pem').waitFor();
    await table.getByText(/CN=Fleetdeck Licence/).waitFor();
    await shot('licensing-uploaded');
  });

  it('switches push notifications and events, and creates and deletes a platform', async () => {
    await openTab('push-notifications', 'Push Notifications');
    const nodeConnected = page.getByRole('switch', { name: 'Node connected' });
    await nodeConnected.waitFor({ state: 'attached' });
    expect(await nodeConnected.isDisabled()).toBe(true);
    await shot('push-off');

    // Mantine draws the switch over a visually hidden input: click the input itself.
    await page.getByRole('switch', { name: 'Mobile push notifications' }).click({ force: true });
    await toast('Mobile notifications enabled successfully').waitFor();
    await expect.poll(() => nodeConnected.isDisabled()).toBe(false);
    await nodeConnected.click({ force: true });
    await toast('Event filter configured successfully!').waitFor();
    await expect.poll(() => nodeConnected.isChecked()).toBe(true);
    expect(
      await api('GET', '/v1/admin/event_filter?event_type=rmaker.event.node_connected'),
    ).toMatchObject({
      event_entity_mapping_list: [
        { enabled: true, entity_id: 'system.rmaker.event.node_connected' },
      ],
    });
    // Off again: the filter exists now, so this is an update.
    await nodeConnected.click({ force: true });
    await expect.poll(() => nodeConnected.isChecked()).toBe(false);

    await page.getByText('No mobile platforms yet.', { exact: false }).waitFor();
    const apple = certificate(
      '/UID=com.fleetdeck.app/CN=Apple Development IOS Push Services: com.fleetdeck.app',
    );
    await page.getByRole('button', { name: 'Create platform' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create mobile platform' });
    await dialog.getByLabel('Platform', { exact: true }).click();
    await page.getByRole('option', { name: /APNS_SANDBOX/ }).click();
    await dialog.getByLabel('SSL certificate').fill(apple.cert);
    await dialog.getByLabel('Private key').fill(apple.key);
    await shot('push-create-platform');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('Created platform for push notifications successfully').waitFor();
    const platforms = page.getByRole('table', { name: 'Mobile platforms' });
    await platforms.getByText('APNS_SANDBOX', { exact: true }).waitFor();
    await shot('push-on');

    // The created type is no longer offered.
    await page.getByRole('button', { name: 'Create platform' }).click();
    await dialog.getByLabel('Platform', { exact: true }).click();
    await page.getByRole('option', { name: /GCM/ }).waitFor();
    expect(await page.getByRole('option', { name: /APNS_SANDBOX/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await platforms.getByRole('button', { name: 'Delete APNS_SANDBOX' }).click();
    await page
      .getByRole('dialog', { name: 'Delete mobile platform' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await toast('Mobile platform deleted successfully!').waitFor();
    await page.getByText('No mobile platforms yet.', { exact: false }).waitFor();

    // Off again: the events cannot be switched any more.
    const master = page.getByRole('switch', { name: 'Mobile push notifications' });
    await master.click({ force: true });
    await toast(MESSAGES.mobileNotificationsDisabled).waitFor();
    await expect.poll(() => master.isChecked()).toBe(false);
    await expect.poll(() => nodeConnected.isDisabled()).toBe(true);
    await screenshot(page, 'ops-push-off-again');
  });

  it('says so when the dashboard update check fails', async () => {
    // The shell signed in above checked successfully: no failure shown.
    expect(await toast(MESSAGES.updateCheckFailed).count()).toBe(0);
    // Fail only the update check, at the network level, for the next page load.
    let aborted = 0;
    await page.route(
      (url) => url.pathname === SETTINGS_PATHS.dashboardUpdate,
      async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        aborted += 1;
        return route.abort('connectionfailed');
      },
    );
    await page.goto('/home/deployment-settings/');
    await toast(MESSAGES.updateCheckFailed).waitFor();
    expect(aborted).toBeGreaterThan(0);
    expect(await page.getByTestId('dashboard-update-modal').count()).toBe(0);
    await screenshot(page, 'ops-dashboard-update-check-failed');
  });

  it('offers to reload when the server serves a newer dashboard build', async () => {
    expect(builtVersion).toMatch(/^\d+\.\d+\.\d+\+\d{8}T\d{6}Z$/);
    await page.goto('/home/deployment-settings/');
    await page.waitForTimeout(500);
    expect(await page.getByTestId('dashboard-update-modal').count()).toBe(0);

    const newer = `${builtVersion.split('+')[0]}+29990101T000000Z`;
    fs.writeFileSync(path.join(webCopy, 'version.json'), JSON.stringify({ version: newer }));
    await page.reload();
    const modal = page.getByTestId('dashboard-update-modal');
    await modal.getByText(`Available: ${newer}`, { exact: false }).waitFor();
    await shot('dashboard-update-modal');
    await modal.getByRole('button', { name: 'Update now' }).click();
    await toast('Dashboard updated successfully!').waitFor();
    // The "new" build is this one again once the page has reloaded.
    fs.writeFileSync(path.join(webCopy, 'version.json'), JSON.stringify({ version: builtVersion }));
    await page.waitForLoadState('load');
    await page.waitForTimeout(2000);
    expect(await page.getByTestId('dashboard-update-modal').count()).toBe(0);
  });
});
