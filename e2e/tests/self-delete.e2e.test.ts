import fs from 'node:fs';
import { MESSAGES, SERVER_MESSAGES, formatMessage } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeIn,
  startSmtpCapture,
  type SmtpCapture,
} from '../../packages/server/test/helpers/smtp-capture.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { copyWebBuild } from '../helpers/web-copy.js';

/**
 * An end user deletes their own account from /home/userinfo/ with the code mailed to them, over
 * SMTP to a real smtp-server peer in this process, lands on /login and cannot sign in again.
 */
const SHOTS = '/tmp/shots-self-delete';
const EMAIL = 'dana.leaving@example.org';
const PASSWORD = 'Quiet-Harbour-2031';

let server: RunningServer;
let smtp: SmtpCapture;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let adminToken: string;
let webCopy: string;
let removeWebCopy: (() => void) | undefined;

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, `self-delete-${name}`);
}

/** Waits until the modal's opening transition is over, so a screenshot shows it as a person does. */
async function settled(dialog: Locator): Promise<void> {
  await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
}

/** Whether the admin's user list still holds the account. */
async function accountExists(userName: string): Promise<boolean> {
  const response = await fetch(
    `${server.url}/v1/admin/user2?user_name=${encodeURIComponent(userName)}`,
    { headers: { authorization: adminToken } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { total: number }).total === 1;
}

beforeAll(async () => {
  ({ dir: webCopy, remove: removeWebCopy } = copyWebBuild());
  smtp = await startSmtpCapture();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_SENDS_PER_HOUR: '50',
    WEB_DIST_DIR: webCopy,
  });
  ({ browser, close: closeBrowser } = await launchBrowser());
  adminToken = await apiToken(server.url);
  const created = await fetch(`${server.url}/v1/admin/user2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: adminToken },
    body: JSON.stringify({ user_name: EMAIL, password: PASSWORD, roles: ['user'] }),
  });
  expect(created.status, await created.text()).toBe(201);
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  await smtp?.close();
  removeWebCopy?.();
});

describe("deleting one's own account", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, server.url);
    page = await context.newPage();
  });
  afterAll(async () => context.close());

  it('deletes the account with the mailed code, lands on /login and cannot sign in again', async () => {
    await signIn(page, EMAIL, PASSWORD);
    await page.goto('/home/userinfo/');
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();
    await page.getByRole('button', { name: 'Delete account' }).click();

    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog
      .getByText(formatMessage(MESSAGES.deleteAccountConsequence, { email: EMAIL }))
      .waitFor();
    // Cancel has the focus (nothing is lost by pressing Enter); Tab reaches Send code.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toBe('Cancel');
    await settled(dialog);
    await shot(page, 'modal');

    const mark = smtp.mails.length;
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const codeField = dialog.getByLabel('Verification code');
    await codeField.waitFor();
    await dialog
      .getByText(formatMessage(MESSAGES.deleteAccountCodeSent, { email: EMAIL }))
      .waitFor();
    const mail = await smtp.waitForMail(
      EMAIL,
      (m) => /deleting your Fleetdeck account/.test(m.subject) && smtp.mails.indexOf(m) >= mark,
    );
    const code = codeIn(mail.text);

    // The code field has the focus: Enter submits the empty form, which is refused at once.
    await expect.poll(() => codeField.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.getByText(MESSAGES.enterVerificationCode).waitFor();

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await codeField.fill(wrong);
    await page.keyboard.press('Enter');
    await dialog.getByText(SERVER_MESSAGES.userDeleteCodeIncorrect).waitFor();
    await settled(dialog);
    await shot(page, 'modal-wrong-code');
    expect(await accountExists(EMAIL)).toBe(true);

    await codeField.fill(code);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByText(MESSAGES.accountDeleted).first().waitFor();
    await shot(page, 'signed-out');

    expect(await accountExists(EMAIL)).toBe(false);
    // The old session is gone.
    const me = await context.request.get('/v1/user');
    expect(me.status()).toBe(401);

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(SERVER_MESSAGES.incorrectCredentials).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
