import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LABELS, MESSAGES, SERVER_MESSAGES, formatMessage } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcPeer, type OidcPeer } from '../../packages/server/test/helpers/identity-peers.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * The identity tabs of Deployment Settings against a real server and a real OpenID Provider
 * (oidc-provider standing in for Google): configure Google, set the domain, edit the app client,
 * back up and restore, read the deployment details; then a new person signs in with Google from
 * the login page and lands on /home/nodes. Tests run in order and share the servers.
 *
 * Deployment Settings open only in customer mode (access §6), and customer mode hides the social
 * buttons of the login page (also §6; ADR 12). So two server processes share one database, as two
 * instances of one deployment would: the customer-mode one for the settings screens (`server`),
 * the standard one (`site`) for the login page that offers Google.
 */
const SHOTS = '/tmp/shots-identity';

let dataDir: string;
let site: RunningServer;
let server: RunningServer;
let peer: OidcPeer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

async function shot(name: string): Promise<void> {
  await screenshot(page, `identity-${name}`);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const openTab = async (label: string) => {
  await page.getByRole('tab', { name: label }).click();
  await expect.poll(() => page.getByRole('tabpanel', { name: label }).isVisible()).toBe(true);
};

describe('identity settings and social sign-in in the browser', () => {
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-e2e-identity-'));
    site = await startServer({ DATA_DIR: dataDir });
    server = await startServer({ DATA_DIR: dataDir, DEPLOYMENT_MODE: 'customer' });
    peer = await startOidcPeer([`${site.url}/v1/oauth2/callback`]);
    peer.accounts.set('e2e-person', {
      email: 'social.person@example.com',
      email_verified: true,
      name: 'Social Person',
    });
    peer.nextSubject = 'e2e-person';
    ({ browser, close: closeBrowser } = await launchBrowser());
    context = await newContext(browser, server.url);
    page = await context.newPage();
    await signIn(page);
  }, 90_000);
  afterAll(async () => {
    await closeBrowser?.();
    await peer?.close();
    await server?.stop();
    await site?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('configures Google in the Identity Providers tab', async () => {
    await page.goto('/home/deployment-settings/');
    await openTab(LABELS.tabIdentityProviders);
    await page.getByRole('button', { name: 'Add identity provider' }).click();
    const form = page.getByTestId('identity-provider-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe(MESSAGES.provideAllDetails);

    await form.getByLabel('Client id').fill(peer.clientId);
    await form.getByLabel('Client secret').fill(peer.clientSecret);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe(MESSAGES.callbackUrlsBlank);

    await form.getByLabel('Callback URLs').fill(`${site.url}/socialauth`);
    // The message was about the last attempt: it goes once the field is filled in.
    await expect(form.getByRole('alert').count()).resolves.toBe(0);
    await form.getByLabel('Issuer or base URL (optional)').fill(peer.issuer);
    await shot('identity-provider-editor');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MESSAGES.identityProviderConfigured).waitFor();
    const table = page.getByRole('table', { name: 'Identity providers' });
    await table.getByText(peer.clientId).waitFor();
    // The secret is shown masked only.
    expect(await table.textContent()).not.toContain(peer.clientSecret);
    expect(await table.textContent()).toContain(`••••${peer.clientSecret.slice(-4)}`);
    await shot('identity-providers');
  });

  it('sets the domain and edits the app client in Cognito Configurations', async () => {
    await openTab(LABELS.tabCognitoConfigurations);
    const clients = page.getByRole('table', { name: 'App clients' });
    await clients.getByText('fleetdeck-dashboard').waitFor();
    expect(await clients.textContent()).toContain('Google');

    const domainForm = page.getByTestId('cognito-domain-form');
    const deleteButton = domainForm.getByRole('button', { name: 'Delete' });
    expect(await deleteButton.isDisabled()).toBe(true);
    await domainForm.getByLabel('Domain name').fill('Bad_Domain');
    await domainForm.getByRole('button', { name: 'Save' }).click();
    await domainForm.getByRole('alert').waitFor();
    expect(await domainForm.getByRole('alert').textContent()).toContain('lower-case letters');
    await domainForm.getByLabel('Domain name').fill('e2e-fleet');
    await expect.poll(() => domainForm.getByLabel('Domain name').inputValue()).toBe('e2e-fleet');
    await domainForm.getByRole('button', { name: 'Save' }).click();
    // The effect, not only the toast (a toast can close before a slow CI run looks for it):
    // Delete is enabled once the domain exists.
    await expect.poll(() => deleteButton.isDisabled(), { timeout: 15_000 }).toBe(false);
    expect(await domainForm.getByLabel('Domain name').inputValue()).toBe('e2e-fleet');

    await clients.getByRole('button', { name: 'Edit fleetdeck-dashboard' }).click();
    const editor = page.getByTestId('app-client-form');
    await editor
      .getByLabel('Callback URLs')
      .fill(`${server.url}/socialauth,\n${site.url}/socialauth,\nmyapp://callback`);
    await shot('app-client-editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    // The saved row shows the new callback URL (the effect; the toast may already be gone).
    await clients.getByText('myapp://callback').waitFor();
    await shot('cognito');
  });

  it('backs up the app clients and restores them', async () => {
    await openTab(LABELS.tabBackupRestore);
    await page.getByRole('button', { name: 'Backup', exact: true }).click();
    await page.getByText(/Backup taken/).waitFor();
    const backed = page.getByRole('table', { name: 'Backed-up app clients' });
    await backed.getByText('myapp://callback', { exact: false }).waitFor();
    await shot('backup');

    // Change the client, then restore: the backup's URLs come back.
    await openTab(LABELS.tabCognitoConfigurations);
    const clients = page.getByRole('table', { name: 'App clients' });
    await clients.getByRole('button', { name: 'Edit fleetdeck-dashboard' }).click();
    const editor = page.getByTestId('app-client-form');
    await editor.getByLabel('Callback URLs').fill(`${server.url}/socialauth`);
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await clients.textContent())?.includes(`${site.url}/socialauth`))
      .toBe(false);

    await openTab(LABELS.tabBackupRestore);
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Cognito app client configuration restored successfully').waitFor();
    await openTab(LABELS.tabCognitoConfigurations);
    await page.getByRole('table', { name: 'App clients' }).getByText('myapp://callback').waitFor();
  });

  it('says on the identity tabs when the chosen pool is not the one sign-ins use', async () => {
    const notice = page.getByTestId('inactive-pool-notice');
    // The default pool is the one this server signs people in with: no notice.
    await openTab(LABELS.tabIdentityProviders);
    await page.getByRole('table', { name: 'Identity providers' }).waitFor();
    expect(await notice.count()).toBe(0);

    const emailPool = page.getByRole('radio', { name: LABELS.emailUserPool });
    await emailPool.click();
    await page.waitForURL(/pool=email/);
    await expect.poll(() => emailPool.isChecked()).toBe(true);
    const expected = formatMessage(MESSAGES.inactivePoolNotice, {
      pool: LABELS.emailUserPool,
      active: LABELS.emailPhoneUserPool,
    });
    for (const label of [LABELS.tabIdentityProviders, LABELS.tabCognitoConfigurations]) {
      await openTab(label);
      await notice.waitFor();
      expect(await notice.textContent()).toContain(expected);
      await shot(`inactive-pool-${label.toLowerCase().replace(/\W+/g, '-')}`);
    }

    await page.getByRole('radio', { name: LABELS.emailPhoneUserPool }).click();
    await page.waitForURL((url) => !url.search.includes('pool=email'));
    await page.getByRole('table', { name: 'App clients' }).getByText('myapp://callback').waitFor();
    expect(await notice.count()).toBe(0);
  });

  it('shows the deployment details of the running server', async () => {
    await openTab(LABELS.tabDeploymentDetails);
    const details = page.getByRole('table', { name: 'Deployment details' });
    await details.getByText(server.url, { exact: true }).waitFor();
    const text = (await details.textContent()) ?? '';
    expect(text).toContain('Fleetdeck server');
    expect(text).toMatch(/Account id\d{12}/);
    await shot('deployment-details');
  });

  it('lets a new person sign in with Google from the login page and land on /home/nodes', async () => {
    const visitor = await newContext(browser, site.url);
    const person = await visitor.newPage();
    try {
      await person.goto('/login');
      const google = person.getByRole('link', { name: 'Continue with Google' });
      await google.waitFor();
      await person.screenshot({ path: path.join(SHOTS, 'login-with-google.png') });
      await google.click();
      await person.waitForURL(/\/home\/nodes/, { timeout: 20_000 });
      await person.getByText('social.person@example.com').first().waitFor();
      const cookies = await visitor.cookies();
      expect(cookies.find((cookie) => cookie.name === 'ATK')?.httpOnly).toBe(true);
      expect(cookies.find((cookie) => cookie.name === 'user_name')?.value).toContain(
        'social.person',
      );
      await person.screenshot({ path: path.join(SHOTS, 'social-landed.png'), fullPage: true });
    } finally {
      await visitor.close();
    }
  });

  it('shows a refused social sign-in in its own words only, with a way back to the login page', async () => {
    const visitor = await newContext(browser, server.url);
    const person = await visitor.newPage();
    const crafted = 'Your account is locked. Call +1 555 0100 to unlock it';
    const alertText = async (query: string) => {
      await person.goto(`/socialauth?${query}`);
      const alert = person.getByRole('alert');
      await alert.waitFor();
      return (await alert.textContent()) ?? '';
    };
    try {
      // A crafted link cannot put its text on the page: our fixed messages only.
      const forged = await alertText(
        `error=access_denied&error_description=${encodeURIComponent(crafted)}`,
      );
      expect(forged).not.toContain(crafted);
      expect(forged).toBe(SERVER_MESSAGES.socialSignInFailed);
      await person.screenshot({ path: path.join(SHOTS, 'social-refused.png') });
      await screenshot(person, 'identity-social-refused');
      const unknown = await alertText(
        `error=${encodeURIComponent('<b>evil</b>')}&error_description=${encodeURIComponent(crafted)}`,
      );
      expect(unknown).toBe(MESSAGES.socialSignInRefused);
      // Our own refusal text arrives as it is.
      expect(
        await alertText(
          `error=access_denied&error_description=${encodeURIComponent(SERVER_MESSAGES.socialEmailMissing)}`,
        ),
      ).toBe(SERVER_MESSAGES.socialEmailMissing);
      await person.getByRole('link', { name: LABELS.backToLogin }).click();
      await person.waitForURL(/\/login/);
    } finally {
      await visitor.close();
    }
  });
});
