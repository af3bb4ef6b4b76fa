import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/session.js';
import { launchBrowser, newContext } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/fleetdeck-server.js';

// Access tokens live 135 s here, so the SPA's refresh (120 s before expiry) is due after ~15 s.
const TTL_SECONDS = 135;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startServer({ ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) });
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe('silent refresh', () => {
  it('refreshes the session 120 s before expiry without the operator noticing, with two tabs open', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    const second = await context.newPage();
    await second.goto('/home/change-password/');
    await second.getByLabel('Current password').waitFor();

    const before = (await context.cookies()).find((c) => c.name === 'ATK')?.value;
    const refreshes: number[] = [];
    context.on('response', (response) => {
      if (response.url().endsWith('/v1/session/refresh')) refreshes.push(response.status());
    });
    const started = Date.now();
    await context.waitForEvent('response', {
      predicate: (r) => r.url().endsWith('/v1/session/refresh'),
      timeout: 45_000,
    });
    const elapsed = (Date.now() - started) / 1000;
    expect(elapsed).toBeLessThan(30);
    await page.waitForTimeout(2000);

    // The Web Lock normally lets one tab refresh; a second refresh inside the server's rotation
    // grace window is allowed, but no refresh may fail and no tab may be signed out.
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.length).toBeLessThanOrEqual(2);
    expect(refreshes.every((status) => status === 200)).toBe(true);
    const after = (await context.cookies()).find((c) => c.name === 'ATK')?.value;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);

    // Both tabs are still signed in and the session works.
    for (const p of [page, second]) {
      await p.reload();
      await p.waitForURL(/\/home/);
    }
    const status = await page.evaluate(
      async () => (await fetch('/v1/user', { credentials: 'same-origin' })).status,
    );
    expect(status).toBe(200);
    await context.close();
  });
});
