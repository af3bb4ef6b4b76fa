import fs from 'node:fs';
import { LABELS, MESSAGES } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { USER_LABELS } from '../../packages/web/src/features/users/labels.js';
import {
  codeIn,
  startSmtpCapture,
  type SmtpCapture,
} from '../../packages/server/test/helpers/smtp-capture.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_EMAIL,
  apiToken,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * User administration against a built server whose mail goes over SMTP to a real smtp-server
 * peer in this process: a super admin creates a user in the Add User modal and the invitation
 * arrives, deletes a user with the code mailed to them, and edits the invitation template.
 */
const SHOTS = '/tmp/shots-users';

let smtp: SmtpCapture;
let server: RunningServer;
let token: string;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

async function shot(name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, `users-${name}`);
}

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Fleet Ops <ops@fleetdeck.test>',
    MAIL_SENDS_PER_HOUR: '50',
    // Deployment Settings open only for customer admins (access §6).
    DEPLOYMENT_MODE: 'customer',
  });
  ({ browser, close: closeBrowser } = await launchBrowser());
  token = await apiToken(server.url);
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  await smtp?.close();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
  await signIn(page);
});
afterEach(async () => {
  await context.close();
});

const dialog = () => page.getByRole('dialog');

const INVITEE_PASSWORD = 'Harbour-Lights-2031';

/** The header's Account Settings menu: who is signed in, and whether it offers User Registration. */
async function accountMenu(on: Page): Promise<{ user: string; userRegistration: boolean }> {
  await on.getByRole('button', { name: 'Account settings' }).click();
  const user = await on.getByTestId('signed-in-user').innerText();
  const userRegistration =
    (await on.getByRole('menuitem', { name: LABELS.userRegistration }).count()) > 0;
  await on.keyboard.press('Escape');
  return { user, userRegistration };
}

/**
 * The invitee's side, in a browser of their own: the mailed link opens the set-password page with
 * the code filled in; setting a password signs them in; later they sign in with it as anyone would.
 */
async function followInvitation(link: string, userName: string): Promise<void> {
  const inviteeContext = await newContext(browser, server.url);
  try {
    const invitee = await inviteeContext.newPage();
    await invitee.goto(link);
    await invitee.getByRole('heading', { name: 'Set your password' }).waitFor();
    await invitee.getByText(`For ${userName}. Your invitation code is filled in.`).waitFor();
    await expect(invitee.getByLabel('Verification code').inputValue()).resolves.toBe(
      new URL(link).searchParams.get('code'),
    );
    await invitee.getByLabel('New password', { exact: true }).fill(INVITEE_PASSWORD);
    await invitee.getByLabel('Confirm new password').fill(INVITEE_PASSWORD);
    await screenshot(invitee, 'users-invitation-set-password');
    await invitee.getByRole('button', { name: 'Change password' }).click();
    await invitee.getByText(MESSAGES.passwordChangedSigningIn).first().waitFor();
    await invitee.waitForURL(/\/home\/?$/);
    // Signed in as the invitee, a service engineer: no User Registration for them.
    await expect(accountMenu(invitee)).resolves.toEqual({
      user: userName,
      userRegistration: false,
    });
    await screenshot(invitee, 'users-invitation-signed-in');
  } finally {
    await inviteeContext.close();
  }

  const laterContext = await newContext(browser, server.url);
  try {
    const later = await laterContext.newPage();
    await signIn(later, userName, INVITEE_PASSWORD);
    await later.waitForURL(/\/home\/?$/);
    await expect(accountMenu(later)).resolves.toEqual({ user: userName, userRegistration: false });
  } finally {
    await laterContext.close();
  }
}

describe('User Registration', () => {
  it('creates a user in the Add User modal, and the invitation arrives over SMTP', async () => {
    await page.goto('/home/userregistration/');
    await page.getByRole('heading', { name: 'User Registration' }).waitFor();
    const rows = page.getByTestId('user-table').locator('tbody tr[data-user-name]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    await shot('list');

    await page.getByRole('button', { name: 'Add User' }).click();
    await dialog().getByRole('button', { name: 'Create user' }).click();
    await dialog().getByText('Please enter first name').waitFor();

    await dialog().getByLabel('First name').fill('Kavya');
    await dialog().getByLabel('Last name').fill('Menon');
    await dialog().getByLabel('Address (city)').fill('Mumbai');
    await dialog().getByLabel('Phone number').fill('98765');
    await dialog().getByLabel('Email').fill('kavya.menon@fleetdeck.test');
    await dialog().getByRole('button', { name: 'Create user' }).click();
    await dialog().getByText('Please provide valid phone number').waitFor();
    await dialog().getByLabel('Phone number').fill('9876501234');
    await dialog().getByText('Please select his role').waitFor();
    await dialog().getByTestId('role-select').click();
    await page.getByRole('option', { name: 'Service Engg', exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog().getByText('Please select his geo_regin').waitFor();
    await dialog().getByTestId('geo-region-select').click();
    await page.getByRole('option', { name: 'Mumbai', exact: true }).click();
    await shot('add-user-modal');
    await dialog().getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User created successfully.').waitFor();
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const row = page.locator('tr[data-user-name="kavya.menon@fleetdeck.test"]');
    await expect(row.innerText()).resolves.toContain('Service Engg');

    const mail = await smtp.waitForMail('kavya.menon@fleetdeck.test');
    expect(mail.subject).toBe('Your Fleetdeck account is ready');
    expect(mail.text).toContain('Hello Kavya,');
    const code = codeIn(mail.text);
    const link = `${server.url}/set-new-password?user_name=kavya.menon%40fleetdeck.test&code=${code}`;
    expect(mail.text).toContain(link);

    // Client-side search; no match shows the spec's empty text; the clear button (as on every
    // list search) brings every user back.
    const search = page.getByRole('searchbox', { name: 'Search users' });
    const allUsers = await rows.count();
    await search.fill('kavya');
    await expect.poll(() => rows.count()).toBe(1);
    await search.fill('nobody-here');
    await page.getByTestId('users-empty').getByText('User not found.').waitFor();
    await page.getByRole('button', { name: 'Clear search users' }).click();
    await expect(search.inputValue()).resolves.toBe('');
    await expect.poll(() => rows.count()).toBe(allUsers);

    // The details show the saved profile.
    await row.getByRole('link').click();
    await page.waitForURL(/\/home\/userregistration\/kavya/);
    await expect(page.getByLabel('Address (city)').inputValue()).resolves.toBe('Mumbai');
    await expect(page.getByLabel('Phone number').inputValue()).resolves.toBe('9876501234');
    await page.getByText('Invitation sent · no password yet').waitFor();
    await shot('details');

    // The invitee follows the mailed link; afterwards their details say the password is set.
    await followInvitation(link, 'kavya.menon@fleetdeck.test');
    await page.reload();
    await page.getByText('Active', { exact: true }).waitFor();
    expect(await page.getByText('Invitation sent · no password yet').count()).toBe(0);
  });

  it('deletes a user with the 6-digit code mailed to the admin', async () => {
    await api('POST', '/v1/admin/user2', {
      user_name: 'leaving@fleetdeck.test',
      roles: ['manufacturing_engineer_role'],
      first_name: 'Leo',
      last_name: 'Das',
      city: 'Pune',
      phone_number: '9000000001',
      geo_region: 'Pune',
      registration_date: '2025-01-02',
    });
    await page.goto('/home/user-details/leaving@fleetdeck.test');
    await page.getByRole('button', { name: 'Delete user' }).click();
    await dialog().getByRole('button', { name: 'Send verification code' }).click();
    await dialog()
      .getByText(/We sent a 6-digit code/)
      .waitFor();
    const mail = await smtp.waitForMail(E2E_ADMIN_EMAIL, (m) => m.text.includes('leaving@'));
    const code = codeIn(mail.text);

    await dialog().getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog().getByText('enter verification code!').waitFor();
    await dialog().getByTestId('delete-code').locator('input').first().click();
    await page.keyboard.type(code);
    await shot('delete-code');
    await dialog().getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog().getByText('User deleted successfully.').waitFor();
    await dialog().getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL(/\/home\/userregistration\/?$/);
    await expect
      .poll(() => page.locator('tr[data-user-name="leaving@fleetdeck.test"]').count(), {
        timeout: 10_000,
      })
      .toBe(0);
  });
});

describe('User Registration route guard', () => {
  it('sends a signed-in user without users.manage to change-password, asking the API nothing', async () => {
    // An admin runs the fleet but does not register users (contract roles.ts).
    const userName = 'fleet-admin@fleetdeck.test';
    const password = 'Copper-Kettle-2031';
    await api('POST', '/v1/admin/user2', { user_name: userName, password, roles: ['admin'] });
    await api('POST', '/v1/admin/user2', {
      user_name: 'someone@fleetdeck.test',
      password,
      roles: ['service_engineer_role'],
    });
    // The super admin does get in (the guard lets the right people through).
    await page.goto('/home/userregistration/');
    await page.getByRole('heading', { name: 'User Registration' }).waitFor();

    const adminContext = await newContext(browser, server.url);
    try {
      const admin = await adminContext.newPage();
      const userApiCalls: string[] = [];
      admin.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/v1/admin/user2'))
          userApiCalls.push(request.url());
      });
      await signIn(admin, userName, password);
      await expect(accountMenu(admin)).resolves.toEqual({
        user: userName,
        userRegistration: false,
      });
      for (const path of [
        '/home/userregistration/',
        '/home/userregistration/someone@fleetdeck.test',
        '/home/user-details/someone@fleetdeck.test',
      ]) {
        await admin.goto(path);
        await admin.waitForURL(/\/home\/change-password$/);
        await admin.getByRole('heading', { name: LABELS.userSettings }).waitFor();
        expect(await admin.getByRole('heading', { name: 'User Registration' }).count(), path).toBe(
          0,
        );
      }
      await screenshot(admin, 'users-guard-redirect');
      expect(userApiCalls).toEqual([]);
    } finally {
      await adminContext.close();
    }
  });
});

describe('Email Configurations', () => {
  it('edits the invitation template, and the next invitation uses it', async () => {
    await page.goto('/home/deployment-settings/?tab=email-configurations');
    const form = page.getByTestId('email-template-form');
    await form.waitFor();
    await expect(form.getByLabel('Template type', { exact: true }).inputValue()).resolves.toBe(
      'Welcome Email Notification',
    );
    await page.getByTestId('template-placeholders').getByText('{{first_name}}').waitFor();
    await form.getByLabel('Subject').fill('Welcome to the fleet, {{first_name}}');
    await form.getByLabel('From user name').fill('Fleet Invitations');
    const body = form.getByLabel('Template body');
    await body.fill('Hi {{nickname}}');
    await form.getByRole('button', { name: 'Save template' }).click();
    await page
      .getByTestId('template-error')
      .getByText(/\{\{nickname\}\}/)
      .waitFor();
    await body.fill('Hi {{first_name}},\nStart here: ');
    await page.getByRole('button', { name: 'Insert {{link}}' }).click();
    await expect(body.inputValue()).resolves.toContain('Start here: {{link}}');
    await shot('email-configurations');
    await form.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Email template updated successfully.').waitFor();

    await api('POST', '/v1/admin/user2', {
      user_name: 'templated@fleetdeck.test',
      first_name: 'Tara',
      roles: ['service_manager_role'],
    });
    const mail = await smtp.waitForMail('templated@fleetdeck.test');
    expect(mail.subject).toBe('Welcome to the fleet, Tara');
    expect(mail.from).toContain('Fleet Invitations');
    expect(mail.text).toMatch(/^Hi Tara,\nStart here: http:\/\/127\.0\.0\.1:\d+\/set-new-password/);
  });

  it('is also open to the super admin from User Registration, where Deployment Settings are not', async () => {
    // Deployment Settings open only in customer mode (access §6); the super admin edits the
    // invitation template (fleet §1) from User Registration in every deployment.
    await page.goto('/home/userregistration/');
    const opener = page.getByRole('button', { name: USER_LABELS.emailTemplate });
    await opener.click();
    const editor = page.getByRole('dialog', { name: USER_LABELS.emailTemplateHeading });
    const form = editor.getByTestId('email-template-form');
    await form.waitFor();
    await form.getByLabel('Subject').fill('Your Fleetdeck account, {{first_name}}');
    await shot('email-template-from-user-registration');
    await form.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Email template updated successfully.').waitFor();
    const saved = (await api('GET', '/v1/admin/message_template?template_type=INVITE_MESSAGE')) as {
      template: { message_subject: string };
    };
    expect(saved.template.message_subject).toBe('Your Fleetdeck account, {{first_name}}');
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'hidden' });
    await expect(opener.evaluate((button) => button === document.activeElement)).resolves.toBe(
      true,
    );
  });
});
