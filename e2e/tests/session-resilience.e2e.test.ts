import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  apiToken,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * QUALITY R11 in the browser: a 401 in the middle of a form, the network gone and a slow
 * network. The operator is never signed out while the session can still be saved, and what they
 * typed is kept. (Two tabs refreshing at once: refresh.e2e.test.ts.)
 */
const SESSION_EXPIRED = 'Session expired. Please login again!';
const GROUP_CREATED = 'Node group created successfully.';
const SOMETHING_WENT_WRONG = 'Something went wrong!';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;

const dialog = () => page.getByRole('dialog');

async function groupNames(): Promise<string[]> {
  const token = await apiToken(server.url);
  const response = await fetch(`${server.url}/v1/admin/node_group?num_records=100`, {
    headers: { Authorization: token },
  });
  const body = (await response.json()) as { groups?: Array<{ group_name: string }> };
  return (body.groups ?? []).map((group) => group.group_name);
}

/** Opens Create Device Group on /home/node-groups and types a name and a description. */
async function startGroup(name: string, description: string): Promise<void> {
  await page.goto('/home/node-groups');
  await page.getByRole('heading', { name: 'Device Groups' }).waitFor();
  await page.getByRole('button', { name: 'Create Group' }).first().click();
  await dialog().getByText('Create Device Group').waitFor();
  await dialog().getByLabel('Group name').fill(name);
  await dialog().getByLabel('Description').fill(description);
}

async function dropCookies(names: string[]): Promise<void> {
  const kept = (await context.cookies()).filter((cookie) => !names.includes(cookie.name));
  await context.clearCookies();
  await context.addCookies(kept);
}

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
  await signIn(page);
});
afterEach(async () => {
  await context?.close();
});

describe('a 401 in the middle of a form', () => {
  it('refreshes and saves when only the access token is gone, without signing out', async () => {
    await startGroup('Pune dryers', 'Saved after a silent refresh');
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/v1/session/refresh')) refreshes.push(response.status());
    });
    // The access cookie ran out (a laptop woken from sleep): the refresh cookie still works.
    await dropCookies(['ATK']);

    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText(GROUP_CREATED).waitFor();
    expect(refreshes).toEqual([200]);
    expect(new URL(page.url()).pathname).toBe('/home/node-groups');
    await expect(page.getByText(SESSION_EXPIRED).count()).resolves.toBe(0);
    expect((await context.cookies()).some((cookie) => cookie.name === 'ATK')).toBe(true);
    await expect.poll(groupNames).toContain('Pune dryers');
  });

  it('keeps what was typed through an expired session and the sign-in that follows', async () => {
    const description = 'Machines in Delhi, "east" & west — ünïcode kept';
    await startGroup('Delhi washers', description);
    // The whole session is gone (both cookies expired or revoked).
    await dropCookies(['ATK', 'RTK']);

    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText(SESSION_EXPIRED).waitFor();
    await page.waitForURL(/\/login$/);
    await screenshot(page, 'session-expired-mid-form');

    // Signing in again, on the login page the app went to, leads back to the form as it was.
    await page.getByLabel('Email').fill(E2E_ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/home\/node-groups$/);
    await dialog().getByText('Create Device Group').waitFor();
    await expect(dialog().getByLabel('Group name').inputValue()).resolves.toBe('Delhi washers');
    await expect(dialog().getByLabel('Description').inputValue()).resolves.toBe(description);
    await screenshot(page, 'session-expired-form-restored');
    // The session's end is reported once, not as a string of failures of what was loading.
    await expect(
      page.getByText('Could not check for updates. Please check later.').count(),
    ).resolves.toBe(0);

    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText(GROUP_CREATED).waitFor();
    await expect.poll(groupNames).toContain('Delhi washers');

    // Offered once: the form is empty the next time it opens.
    await page.reload();
    await page.getByRole('button', { name: 'Create Group' }).first().click();
    await expect(dialog().getByLabel('Group name').inputValue()).resolves.toBe('');
  });

  it('does not give a kept form to another user who signs in on the tab', async () => {
    await startGroup('Private draft', 'Not for the next person');
    await dropCookies(['ATK', 'RTK']);
    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/login$/);

    // The kept forms are this tab's; make them another user's, as if someone else had been
    // signed in here, then sign in.
    const kept = await page.evaluate(() => {
      const keys = Object.keys(sessionStorage).filter((key) => key.startsWith('fleetdeck.draft.'));
      for (const key of keys) {
        const draft = JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, unknown>;
        sessionStorage.setItem(key, JSON.stringify({ ...draft, owner: 'someone-else' }));
      }
      return keys.sort();
    });
    expect(kept).toEqual(['fleetdeck.draft.groups.create', 'fleetdeck.draft.groups.create.open']);

    await page.getByLabel('Email').fill(E2E_ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/home\/node-groups$/);
    await page.getByRole('heading', { name: 'Device Groups' }).waitFor();
    await expect(dialog().count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Create Group' }).first().click();
    await expect(dialog().getByLabel('Group name').inputValue()).resolves.toBe('');
    await expect(
      page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('fleetdeck.'))),
    ).resolves.toEqual([]);
  });
});

describe('offline and slow network', () => {
  it('keeps the form and the session while offline, and saves once back online', async () => {
    await startGroup('Chennai fridges', 'Typed while the network was down');
    await context.setOffline(true);
    await page
      .getByTestId('offline-banner')
      .getByText(/You are offline/)
      .waitFor();
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().getByRole('alert').getByText(SOMETHING_WENT_WRONG).waitFor();
    await screenshot(page, 'offline-mid-form');
    expect(new URL(page.url()).pathname).toBe('/home/node-groups');
    await expect(dialog().getByLabel('Group name').inputValue()).resolves.toBe('Chennai fridges');

    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('offline-banner').count()).toBe(0);
    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText(GROUP_CREATED).waitFor();
    await expect(page.getByText(SESSION_EXPIRED).count()).resolves.toBe(0);
    await expect.poll(groupNames).toContain('Chennai fridges');
  });

  it('shows the save in progress on a slow network and creates the group once', async () => {
    await startGroup('Hyderabad ACs', 'Saved over a slow link');
    let posts = 0;
    await page.route('**/v1/admin/node_group', async (route) => {
      if (route.request().method() === 'POST') {
        posts += 1;
        await new Promise((resolve) => setTimeout(resolve, 2_500));
      }
      await route.continue();
    });

    const save = dialog().getByRole('button', { name: 'Save' });
    await save.click();
    await expect.poll(() => save.getAttribute('data-loading')).toBe('true');
    // Pressing Enter or clicking again while it runs sends nothing more.
    await dialog().getByLabel('Group name').press('Enter');
    await save.click({ force: true }).catch(() => undefined);
    await page.getByText(GROUP_CREATED).waitFor({ timeout: 15_000 });
    expect(posts).toBe(1);
    const names = await groupNames();
    expect(names.filter((name) => name === 'Hyderabad ACs')).toHaveLength(1);
  });
});
