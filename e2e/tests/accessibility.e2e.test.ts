import fs from 'node:fs';
import { createRequire } from 'node:module';
import { type NodeRegistration } from '@fleetdeck/contract';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { seedOtaFixture } from '../helpers/ota-fixture.js';
import { signIn } from '../helpers/session.js';

/**
 * WCAG 2.1 A and AA on the main screens and dialogs, as axe-core sees them (no critical or
 * serious violations), and the keyboard paths an audit found broken: the skip link, the closed
 * phone menu, focus after a failed sign-in, after navigation and in a delete confirmation.
 */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const NODES: (NodeRegistration & { node_id: string })[] = Array.from({ length: 3 }, (_, i) => ({
  node_id: `fd-a11y-00${i + 1}`,
  type: 'Refrigerator',
  model: 'RF-100',
  fw_version: '1.0.0',
  tags: [],
}));
const IMAGE_NAME = 'A11y test 1.1';
const GROUP_NAME = 'A11y bench';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let page: Page;
let groupId: string;
let jobId: string;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  ({ groupId, jobId } = await seedOtaFixture(server.url, {
    nodes: NODES,
    image: { image_name: IMAGE_NAME, fw_version: '1.1.0', fill: 1 },
    group: { group_name: GROUP_NAME },
    jobName: 'A11y test job',
  }));
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

/** Lets a dialog's or page's entrance transition finish, so colours are measured at rest. */
const settle = () => page.waitForTimeout(400);

/** The critical and serious WCAG A/AA violations on the page now, one line each. */
async function seriousViolations(): Promise<string[]> {
  // Evaluated, not added as a <script>: the app's Content-Security-Policy allows no inline script.
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (options: object) => Promise<AxeResults> } }).axe.run({
        runOnly: { type: 'tag', values: tags },
      }),
    WCAG_TAGS,
  );
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes
          .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`)
          .join(', ')}`,
    );
}

const focusedElement = () =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active === null
      ? null
      : {
          tag: active.tagName,
          text: (active.textContent ?? '').trim(),
          inNav: active.closest('#main-navigation') !== null,
          inMain: active.closest('main') !== null,
        };
  });
const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);

describe('axe: no critical or serious WCAG 2.1 AA violations', () => {
  it('on the sign-in page', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await settle();
    expect(await seriousViolations()).toEqual([]);
  });

  it('on the signed-in screens', async () => {
    await signIn(page);
    const screens: { path: string; ready: () => Promise<void> }[] = [
      {
        path: '/home/nodes',
        ready: () => page.getByLabel('Select fd-a11y-001', { exact: true }).waitFor(),
      },
      {
        path: `/home/diagnostics/report/${NODES[0]!.node_id}`,
        ready: () => page.locator('main h1').waitFor(),
      },
      { path: '/home/node-groups/', ready: () => page.getByText(GROUP_NAME).first().waitFor() },
      {
        path: '/home/firmware-images',
        ready: () => page.getByText(IMAGE_NAME).first().waitFor(),
      },
      { path: '/home/ota-jobs/', ready: () => page.getByText('A11y test job').first().waitFor() },
      { path: `/home/job-details/${jobId}`, ready: () => page.locator('main h1').waitFor() },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready();
      await settle();
      expect({ path: screen.path, violations: await seriousViolations() }).toEqual({
        path: screen.path,
        violations: [],
      });
    }
  });

  it('with the Add to Device Group and Delete dialogs open', async () => {
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByLabel('Select fd-a11y-001', { exact: true }).check();
    await page.getByRole('button', { name: 'Add to Device Group', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    await settle();
    await screenshot(page, 'a11y-add-to-group-dialog');
    expect(await seriousViolations()).toEqual([]);

    await page.goto(`/home/node-groups/${groupId}`);
    await page.getByTestId('group-fields').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').waitFor();
    await settle();
    expect(await seriousViolations()).toEqual([]);
  });
});

describe('keyboard', () => {
  it('makes the skip link the first tab stop, and it moves focus to the main content', async () => {
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByLabel('Select fd-a11y-001', { exact: true }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedElement()).toMatchObject({ tag: 'A', text: 'Skip to main content' });
    await screenshot(page, 'a11y-skip-link');
    await page.keyboard.press('Enter');
    expect(await focusedElement()).toMatchObject({ tag: 'MAIN' });
    await page.keyboard.press('Tab');
    expect(await focusedElement()).toMatchObject({ inMain: true });
  });

  it('moves focus to the new page heading after sidebar navigation', async () => {
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByLabel('Select fd-a11y-001', { exact: true }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Firmware Images' }).click();
    await page.waitForURL(/firmware-images/);
    await expect.poll(() => focusedElement()).toMatchObject({ tag: 'H1', inMain: true });
  });

  it('keeps the closed phone menu out of the tab order', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByLabel('Select fd-a11y-001', { exact: true }).waitFor();
    await expect(page.locator('#main-navigation').getAttribute('inert')).resolves.not.toBeNull();
    await screenshot(page, 'a11y-devices-phone');
    await page.getByRole('button', { name: /Account settings/ }).focus();
    for (let i = 0; i < 15; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusedElement()).toMatchObject({ inNav: false });
    }

    // Open, the menu is in the tab order again.
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect.poll(() => page.locator('#main-navigation').getAttribute('inert')).toBeNull();
    await screenshot(page, 'a11y-phone-menu-open');
  });

  it('keeps the focused control clear of the fixed header and footer while tabbing', async () => {
    // A short window, so the list scrolls under the header and footer as focus moves down it.
    await page.setViewportSize({ width: 1280, height: 420 });
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByLabel('Select fd-a11y-001', { exact: true }).waitFor();
    await page.getByRole('heading', { level: 1 }).evaluate((heading) => {
      heading.tabIndex = -1;
      heading.focus();
    });
    let checked = 0;
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press('Tab');
      const place = await page.evaluate(() => {
        const active = document.activeElement;
        const header = document.querySelector('.mantine-AppShell-header');
        const footer = document.querySelector('.mantine-AppShell-footer');
        if (!(active instanceof HTMLElement) || !header || !footer) return null;
        // Past the page's last control focus leaves the document: nothing more to check.
        if (active.closest('main') === null) return 'left the page';
        const box = active.getBoundingClientRect();
        return {
          clearOfHeader: box.top >= header.getBoundingClientRect().bottom,
          clearOfFooter: box.bottom <= footer.getBoundingClientRect().top,
          label: `${active.tagName} ${active.getAttribute('aria-label') ?? ''} at ${Math.round(box.top)}–${Math.round(box.bottom)}`,
        };
      });
      if (place === 'left the page') break;
      checked += 1;
      expect(place, place?.label).toMatchObject({ clearOfHeader: true, clearOfFooter: true });
    }
    expect(checked).toBeGreaterThan(8);
  });

  it('puts focus in the Email field after a failed sign-in submit', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => isFocused(page.getByLabel('Email'))).toBe(true);
    await expect(page.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('opens a delete confirmation with focus on Cancel', async () => {
    await signIn(page);
    await page.goto(`/home/node-groups/${groupId}`);
    await page.getByTestId('group-fields').getByRole('button', { name: 'Delete' }).click();
    const cancel = page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true });
    await expect.poll(() => isFocused(cancel)).toBe(true);
  });

  it('moves focus to the page heading once Add to Device Group has disabled its button', async () => {
    await signIn(page);
    await page.goto('/home/nodes');
    await page.getByLabel('Select fd-a11y-002', { exact: true }).check();
    await page.getByRole('button', { name: 'Add to Device Group', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Group', { exact: true }).click();
    await page.getByRole('option', { name: new RegExp(GROUP_NAME) }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedElement()).toMatchObject({ tag: 'H1', inMain: true });
  });
});
