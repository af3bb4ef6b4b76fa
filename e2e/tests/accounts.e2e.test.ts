import fs from 'node:fs';
import { LABELS, MESSAGES } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, totpStep } from '../../packages/server/src/services/auth/totp.js';
import {
  codeIn,
  startSmtpCapture,
  type SmtpCapture,
} from '../../packages/server/test/helpers/smtp-capture.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { copyWebBuild } from '../helpers/web-copy.js';

/**
 * Self-service accounts against a built server whose mail goes over SMTP to a real smtp-server.
 * There is no SMS provider here, so text messages stay in the outbox; the test reads them as a
 * super admin from GET /v1/admin/outbox?channel=sms.
 */
const SHOTS = '/tmp/shots-accounts';
const EMAIL = 'noor.haddad@example.org';
const PASSWORD = 'Harbour-Lights-42';
const NEW_PASSWORD = 'Lantern-Quay-77';
const PHONE = '+919876543210';

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
  await screenshot(page, `accounts-${name}`);
}

/** The newest text message to a number, as an operator reads it from the outbox. */
async function lastSmsTo(to: string, after: number): Promise<{ code: string; at: number }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`${server.url}/v1/admin/outbox?channel=sms`, {
      headers: { authorization: adminToken },
    });
    const body = (await response.json()) as {
      messages: Array<{ recipient: string; body_text: string; created_at: number }>;
    };
    const found = body.messages.find((m) => m.recipient === to && m.created_at >= after);
    if (found) return { code: codeIn(found.body_text), at: found.created_at };
    if (Date.now() > deadline) throw new Error(`no SMS to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The signed-in user's own profile as the API reports it (GET /v1/user2). */
async function fetchProfile(baseUrl: string, token: string): Promise<{ mfa: boolean }> {
  const response = await fetch(`${baseUrl}/v1/user2`, { headers: { authorization: token } });
  expect(response.status).toBe(200);
  return (await response.json()) as { mfa: boolean };
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
  const login = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_name: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
  });
  adminToken = ((await login.json()) as { accesstoken: string }).accesstoken;
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  await smtp?.close();
  removeWebCopy?.();
});

describe('self-service accounts', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, server.url);
    page = await context.newPage();
  });
  afterAll(async () => context.close());

  it('signs up with every sign-up rule, verifies the mailed code and lands signed in on /home', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(/\/sign-up$/);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    const submit = () => page.getByRole('button', { name: 'Sign up' }).click();

    await submit();
    await page.getByText(MESSAGES.enterAllDetails).waitFor();
    await shot(page, 'sign-up-errors');

    await page.getByLabel('Email').fill('noor@');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await submit();
    await page.getByText(MESSAGES.invalidEmail, { exact: true }).waitFor();

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Confirm password').fill(`${PASSWORD}x`);
    await submit();
    await page.getByText(MESSAGES.passwordsDidNotMatch, { exact: true }).waitFor();

    await page.getByLabel('Password', { exact: true }).fill('alllowercase1');
    await page.getByLabel('Confirm password').fill('alllowercase1');
    await submit();
    await page.getByText(MESSAGES.passwordPolicy).waitFor();

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await submit();
    await page.getByText(MESSAGES.agreeToTerms).waitFor();

    await page.getByRole('checkbox').check();
    await shot(page, 'sign-up-filled');
    await submit();
    await page.waitForURL(/\/verification\?user_name=/);
    await page.getByText(MESSAGES.verificationCodeSent).first().waitFor();
    const mail = await smtp.waitForMail(EMAIL, (m) => /verification code/i.test(m.subject));
    await shot(page, 'verification');

    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(MESSAGES.enterVerificationCode).waitFor();
    await page.getByLabel('Verification code').fill(codeIn(mail.text));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(MESSAGES.userVerified).first().waitFor();
    await page.waitForURL(/\/home/);
    const cookies = await context.cookies();
    expect(decodeURIComponent(cookies.find((c) => c.name === 'user_name')?.value ?? '')).toBe(
      EMAIL,
    );
    await shot(page, 'signed-up-home');
  });

  it('shows the profile and turns on SMS MFA with a verified phone', async () => {
    await page.goto('/home/userinfo/');
    await page.getByRole('heading', { name: 'My profile' }).waitFor();
    await page.getByText(EMAIL).first().waitFor();
    await page.getByText('User', { exact: true }).first().waitFor();

    await page.getByRole('switch', { name: /Multi-factor authentication/ }).click({ force: true });
    await page.getByText(MESSAGES.addPhoneFirst).waitFor();

    await page.getByLabel('Phone number').fill('98765');
    await page.getByRole('button', { name: 'Update phone number' }).click();
    await page.getByText(MESSAGES.invalidPhone).waitFor();

    const since = nowSeconds();
    await page.getByLabel('Phone number').fill(PHONE);
    await page.getByRole('button', { name: 'Update phone number' }).click();
    await page.getByText(MESSAGES.phoneNumberAdded).first().waitFor();
    const { code } = await lastSmsTo(PHONE, since);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(MESSAGES.enterVerificationCode).waitFor();
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(MESSAGES.phoneNumberVerified).first().waitFor();
    await page.getByText('Verified', { exact: true }).waitFor();

    await page.getByRole('switch', { name: /Multi-factor authentication/ }).click({ force: true });
    await page.getByText('MFA enabled successfully.').first().waitFor();
    await expect(
      page.getByRole('switch', { name: /Multi-factor authentication/ }).isChecked(),
    ).resolves.toBe(true);
    await shot(page, 'userinfo-mfa');
  });

  it('signs in with the SMS code on /mfa-verification', async () => {
    const fresh = await newContext(browser, server.url);
    const second = await fresh.newPage();
    await second.goto('/login');
    await second.getByLabel('Email').fill(EMAIL);
    await second.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const since = nowSeconds();
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.waitForURL(/\/mfa-verification$/);
    await second.getByText(/ending in 3210/).waitFor();
    await shot(second, 'mfa-verification');
    expect((await fresh.cookies()).some((c) => c.name === 'ATK')).toBe(false);

    const { code } = await lastSmsTo(PHONE, since);
    await second.getByLabel('Verification code').fill(code === '000000' ? '000001' : '000000');
    await second.getByRole('button', { name: 'Verify' }).click();
    await second.getByText('Verification code is incorrect').waitFor();
    await second.getByLabel('Verification code').fill(code);
    await second.getByRole('button', { name: 'Verify' }).click();
    await second.waitForURL(/\/home/);
    expect((await fresh.cookies()).some((c) => c.name === 'ATK')).toBe(true);
    await fresh.close();
  });

  it('sets up an authenticator app with a QR code and recovery codes, then signs in with its code', async () => {
    await page.goto('/home/userinfo/');
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'totp-setup');
    const key = base32Decode(secret);
    await page.getByLabel('Authenticator code').fill(hotp(key, totpStep(Date.now())));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await expect(page.getByTestId('recovery-codes').locator('code').count()).resolves.toBe(10);
    await shot(page, 'totp-recovery-codes');

    const fresh = await newContext(browser, server.url);
    const second = await fresh.newPage();
    await second.goto('/login');
    await second.getByLabel('Email').fill(EMAIL);
    await second.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.waitForURL(/\/mfa-verification$/);
    await second.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    // The step after the one used to turn the app on (a used step is never accepted again).
    await second.getByLabel('Verification code').fill(hotp(key, totpStep(Date.now()) + 1));
    await second.getByRole('button', { name: 'Verify' }).click();
    await second.waitForURL(/\/home/);
    await fresh.close();
  });

  it('recovers the password: forgot → set new → signed in on /home', async () => {
    const fresh = await newContext(browser, server.url);
    const second = await fresh.newPage();
    await second.goto('/login');
    await second.getByRole('link', { name: 'Forgot password?' }).click();
    await second.waitForURL(/\/forgot-password$/);
    await second.getByRole('button', { name: 'Send code' }).click();
    await second.getByText(MESSAGES.forgotInvalidUsername, { exact: true }).waitFor();
    await shot(second, 'forgot-password');

    // The admin has no MFA, so the sign-in after the reset goes straight to /home.
    const mark = smtp.mails.length;
    await second.getByLabel('Email').fill(E2E_ADMIN_EMAIL);
    await second.getByRole('button', { name: 'Send code' }).click();
    await second.waitForURL(/\/set-new-password\?user_name=/);
    await second.getByText(MESSAGES.verificationCodeSent).first().waitFor();
    const mail = await smtp.waitForMail(
      E2E_ADMIN_EMAIL,
      (m) => /reset/i.test(m.subject) && smtp.mails.indexOf(m) >= mark,
    );
    const code = codeIn(mail.text);

    const change = () => second.getByRole('button', { name: 'Change password' }).click();
    await change();
    await second.getByText(MESSAGES.enterAllDetails).waitFor();
    await second.getByLabel('Verification code').fill('1234567');
    await second.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await second.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await change();
    await second.getByText(MESSAGES.verificationCodeNotValid).waitFor();
    await second.getByLabel('Verification code').fill(code);
    await second.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}x`);
    await change();
    await second.getByText(MESSAGES.newPasswordsDidNotMatch, { exact: true }).waitFor();
    await shot(second, 'set-new-password-errors');
    await second.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await change();
    await second.getByText(MESSAGES.passwordChangedSigningIn).first().waitFor();
    await second.waitForURL(/\/home/);
    await fresh.close();

    const old = await fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_name: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
    });
    expect(old.status).toBe(400);
  });
});

describe('MFA Configurations in Deployment Settings (customer deployment)', () => {
  let customer: RunningServer;
  let customerToken: string;
  beforeAll(async () => {
    customer = await startServer({ DEPLOYMENT_MODE: 'customer', WEB_DIST_DIR: webCopy });
    const login = await fetch(`${customer.url}/v1/login2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_name: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
    });
    customerToken = ((await login.json()) as { accesstoken: string }).accesstoken;
  });
  afterAll(async () => customer?.stop());

  it('adds and verifies the phone, then turns MFA on, with the spec messages', async () => {
    const context = await newContext(browser, customer.url);
    const admin = await context.newPage();
    await signIn(admin);
    await admin.goto('/home/deployment-settings/');
    await admin.getByRole('tab', { name: LABELS.tabMfaConfigurations }).click();
    const panel = admin.getByRole('tabpanel', { name: LABELS.tabMfaConfigurations });
    await panel.getByRole('switch', { name: /Multi-factor authentication/ }).waitFor();
    await panel.getByRole('switch', { name: /Multi-factor authentication/ }).click({ force: true });
    await panel.getByText(MESSAGES.addPhoneFirst).waitFor();

    const since = nowSeconds();
    await panel.getByLabel('Phone number').fill('+14155550123');
    await panel.getByRole('button', { name: 'Update phone number' }).click();
    await admin.getByText(MESSAGES.phoneNumberAdded).first().waitFor();
    await panel.getByRole('button', { name: 'Verify' }).click();
    await panel.getByText(MESSAGES.enterVerificationCode).waitFor();
    await shot(admin, 'deployment-settings-mfa');

    const outbox = await fetch(`${customer.url}/v1/admin/outbox?channel=sms`, {
      headers: { authorization: customerToken },
    });
    const { messages } = (await outbox.json()) as {
      messages: Array<{ recipient: string; body_text: string; created_at: number }>;
    };
    const text = messages.find((m) => m.recipient === '+14155550123' && m.created_at >= since);
    await panel.getByLabel('Verification code').fill(codeIn(text?.body_text ?? ''));
    await panel.getByRole('button', { name: 'Verify' }).click();
    await admin.getByText(MESSAGES.phoneNumberVerified).first().waitFor();
    await panel.getByRole('switch', { name: /Multi-factor authentication/ }).click({ force: true });
    await admin.getByText('MFA enabled successfully.').first().waitFor();
    await shot(admin, 'deployment-settings-mfa-on');

    // Turning MFA off is a step-up: the password (or an authenticator code) first.
    const mfaSwitch = panel.getByRole('switch', { name: /Multi-factor authentication/ });
    await mfaSwitch.click({ force: true });
    const proof = panel.getByLabel('Password or authenticator code');
    await panel.getByRole('button', { name: 'Turn MFA off' }).click();
    await panel.getByRole('alert').filter({ hasText: MESSAGES.mfaOffNeedsProof }).waitFor();
    await proof.fill('Not-The-Password-1');
    await panel.getByRole('button', { name: 'Turn MFA off' }).click();
    await expect.poll(() => panel.getByRole('alert').count()).toBeGreaterThan(0);
    await shot(admin, 'deployment-settings-mfa-off-proof');
    expect((await fetchProfile(customer.url, customerToken)).mfa).toBe(true);
    await proof.fill(E2E_ADMIN_PASSWORD);
    await panel.getByRole('button', { name: 'Turn MFA off' }).click();
    await admin.getByText('MFA disabled successfully.').first().waitFor();
    await expect.poll(() => mfaSwitch.isChecked()).toBe(false);
    expect((await fetchProfile(customer.url, customerToken)).mfa).toBe(false);
    await context.close();
  });
});
