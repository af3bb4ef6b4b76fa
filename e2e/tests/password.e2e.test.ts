import { MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/session.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

async function fillAndSubmit(
  page: Page,
  current: string,
  next: string,
  confirm: string,
): Promise<void> {
  await page.getByLabel('Current password').fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password').fill(confirm);
  await page.getByRole('button', { name: 'Change password' }).click();
}

describe('change password', () => {
  it('applies every rule of the spec, then changes the password and keeps the operator signed in', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.getByRole('button', { name: 'Account settings' }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    await page.waitForURL(/\/home\/change-password/);
    await expect(
      page.getByLabel('New password', { exact: true }).getAttribute('maxlength'),
    ).resolves.toBe('64');
    await screenshot(page, 'change-password');

    await fillAndSubmit(page, '', '', '');
    await page.getByText(MESSAGES.enterAllDetails).first().waitFor();

    await fillAndSubmit(page, E2E_ADMIN_PASSWORD, 'Abcdefg1x', 'Abcdefg1y');
    await page.getByText(MESSAGES.passwordsDidNotMatch, { exact: true }).first().waitFor();

    await fillAndSubmit(page, E2E_ADMIN_PASSWORD, 'alllowercase1', 'alllowercase1');
    await page.getByText(MESSAGES.passwordPolicy).first().waitFor();
    await screenshot(page, 'change-password-errors');

    await fillAndSubmit(page, 'Not-my-password-1', 'Fresh-Console-77', 'Fresh-Console-77');
    await page.getByText(SERVER_MESSAGES.currentPasswordWrong).first().waitFor();

    await fillAndSubmit(page, E2E_ADMIN_PASSWORD, 'Fresh-Console-77', 'Fresh-Console-77');
    await page.getByText(MESSAGES.passwordChanged).first().waitFor();
    await expect(page.getByLabel('Current password').inputValue()).resolves.toBe('');

    // The operator's new session works; the old password no longer does.
    await page.reload();
    await page.getByLabel('Current password').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/change-password/);
    const oldLogin = await fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_name: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
    });
    expect(oldLogin.status).toBe(400);
    const newLogin = await fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_name: E2E_ADMIN_EMAIL, password: 'Fresh-Console-77' }),
    });
    expect(newLogin.status).toBe(200);
    await context.close();
  });
});
