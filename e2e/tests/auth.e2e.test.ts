import { MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/session.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  apiToken,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

describe('sign-in', () => {
  it('sends the root path to the login page', async () => {
    await page.goto('/');
    await page.waitForURL(/\/login$/);
    // The login route is a lazy chunk: wait for it to render (a missing button fails the wait).
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    await expect(
      page.getByRole('link', { name: /forgot/i }).getAttribute('href'),
    ).resolves.toContain('/forgot-password');
    await expect(
      page.getByRole('link', { name: /sign up/i }).getAttribute('href'),
    ).resolves.toContain('/sign-up');
    await screenshot(page, 'login');
  });

  it('shows the spec messages for a bad username and password, and the server failure for wrong credentials', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(MESSAGES.invalidUsername).waitFor();
    await page.getByText(MESSAGES.invalidPassword).waitFor();
    await expect(page.getByLabel('Email').getAttribute('maxlength')).resolves.toBe('64');

    await page.getByLabel('Email').fill(E2E_ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(SERVER_MESSAGES.incorrectCredentials).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-errors');
  });

  it('signs in with good credentials and shows the shell with the sidebar, account menu and footer', async () => {
    await signIn(page);
    for (const label of [
      'Devices',
      'Device Categories',
      'Graphs',
      'Wifi Firmware Images',
      'OTA History',
      'Fault List',
      'Active Fault List',
      'Search By Geo Region',
      'Search By Product Serial No.',
      'DeviceReports',
    ]) {
      await page.getByRole('link', { name: label, exact: true }).first().waitFor();
    }
    // Deployment Settings opens only in a customer deployment (access §6): no link to a bounce.
    expect(await page.getByRole('link', { name: 'Deployment Settings', exact: true }).count()).toBe(
      0,
    );
    await page.getByText('© 2025', { exact: false }).first().waitFor();
    await screenshot(page, 'home-shell');
    await page.getByRole('button', { name: 'Account settings' }).click();
    await page.getByText(E2E_ADMIN_EMAIL).first().waitFor();
    await page.getByRole('menuitem', { name: 'User Registration' }).waitFor();
    await page.getByRole('menuitem', { name: 'Change Password' }).waitFor();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await screenshot(page, 'account-menu');
  });

  it('shows an honest not-found view for a /home page that is not built yet', async () => {
    await signIn(page);
    await page.goto('/home/firmware-images');
    await page
      .getByText(/not found/i)
      .first()
      .waitFor();
    await screenshot(page, 'home-not-built');
  });
});

describe('small screens', () => {
  it('folds the sidebar behind a burger button at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    await burger.waitFor();
    const devices = page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Devices', exact: true });
    // Mantine slides the closed navbar out of the viewport rather than removing it.
    const onScreen = async () => {
      const box = await devices.boundingBox();
      return box !== null && box.x + box.width > 0 && box.x < 390;
    };
    await screenshot(page, 'home-phone');
    await expect(onScreen()).resolves.toBe(false);
    await burger.click();
    await page.waitForTimeout(400); // slide-in transition
    await expect(onScreen()).resolves.toBe(true);
    await screenshot(page, 'home-phone-nav-open');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('says whether the phone menu is open, and closes it with Escape back to the burger', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });
    const devices = navigation.getByRole('link', { name: 'Devices', exact: true });
    const onScreen = async () => {
      const box = await devices.boundingBox();
      return box !== null && box.x + box.width > 0 && box.x < 390;
    };
    await expect(burger.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(burger.getAttribute('aria-controls')).resolves.toBe(
      await navigation.getAttribute('id'),
    );

    await burger.click();
    await expect(burger.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect.poll(onScreen).toBe(true);
    await devices.focus();
    await page.keyboard.press('Escape');
    await expect(burger.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect.poll(onScreen).toBe(false);
    await expect(burger.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
  });
});

describe('route guard', () => {
  it('sends a visitor without a session from /home to /login', async () => {
    await page.goto('/home/change-password/');
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('starts a signed-out visitor at /login before the page’s own files, and returns them to that page after signing in', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const firstIndex = (pattern: RegExp) => scripts.findIndex((path) => pattern.test(path));
    await page.goto('/home/nodes?status=true');
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // ADR 32: the URL moved before the router started, so the sign-in page's files came first;
    // the devices screen and the home layout are fetched only after it (preloaded once the
    // sign-in page is idle, or on the way back after signing in).
    const loginAt = firstIndex(/\/login\.route-/);
    expect(loginAt).toBeGreaterThanOrEqual(0);
    const layoutAt = firstIndex(/\/home\.layout-/);
    expect(layoutAt === -1 || layoutAt > loginAt).toBe(true);

    await page.getByLabel('Email').fill(E2E_ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/home\/nodes\?status=true$/);
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    expect(firstIndex(/\/home\.layout-/)).toBeGreaterThan(loginAt);
    expect(firstIndex(/\/devices\.route-/)).toBeGreaterThan(loginAt);
    // Preloaded or not, each module was downloaded once.
    expect(scripts.filter((path) => /\/devices\.route-/.test(path))).toHaveLength(1);
  });

  it('asks who the user is once on a signed-in page load', async () => {
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    const probes: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/user') probes.push(request.method());
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    await page.locator('[data-testid="node-table"]').waitFor();
    // main.tsx asks at start (ADR 32); the session guard then reads that answer, not a second one.
    expect(probes).toEqual(['GET']);
  });

  it('still sends a browser whose stored session the server no longer has through the guard, and back', async () => {
    await signIn(page);
    await context.clearCookies();
    await page.goto('/home/nodes?type=Refrigerator');
    await page.waitForURL(/\/login$/);
    await page.getByLabel('Email').fill(E2E_ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/home\/nodes\?type=Refrigerator$/);
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
  });

  it('shows the unauthorised page with a way back to login', async () => {
    await page.goto('/unauthorised');
    await page.getByText(MESSAGES.unauthorisedPage).waitFor();
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await page.waitForURL(/\/login$/);
  });
});

describe('logout', () => {
  it('asks for confirmation, can be cancelled, and ends the session on Yes, Logout', async () => {
    await signIn(page);
    await page.getByRole('button', { name: 'Account settings' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(MESSAGES.logoutConfirm).waitFor();
    await page.waitForTimeout(400); // let the modal's open transition finish for the screenshot
    await screenshot(page, 'logout-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toMatch(/^\/home/);

    await page.getByRole('button', { name: 'Account settings' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: MESSAGES.logoutConfirmButton })
      .click();
    await page.waitForURL(/\/login$/);
    await page.getByText(MESSAGES.loggedOut).first().waitFor();

    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'ATK')).toBeUndefined();
    await page.goto('/home/change-password/');
    await page.waitForURL(/\/login/);
  });
});

describe('session expiry', () => {
  it('ends a session revoked on the server with the toast and a return to /login', async () => {
    await signIn(page);
    await page.goto('/home/change-password/');
    await page.getByLabel('Current password').waitFor();

    // Revoke every session of the operator from another client (as an admin would).
    const token = await apiToken(server.url);
    const revoke = await fetch(`${server.url}/v1/logout2?logout_all=true`, {
      method: 'POST',
      headers: { authorization: token },
    });
    expect(revoke.status).toBe(200);

    await page.getByRole('link', { name: 'Devices', exact: true }).first().click();
    await page.reload();
    await page.waitForURL(/\/login/);
    await page.getByText(MESSAGES.sessionExpired).first().waitFor();
    await screenshot(page, 'session-expired');
  });
});
