// Headless Chromium for the browser benchmarks (B7, B8), launched as the e2e tests launch it
// (e2e/helpers/browser.ts): Debian's Chromium through playwright-core, no background traffic.
import { chromium } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, cleanUpOnSignal } from './lib.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const VIEWPORT = { width: 1280, height: 800 };

/**
 * Starts Chromium as a browser server (so that its PID is known), headless, with a fresh
 * user-data dir of Playwright's own, and connects to it. Playwright's own signal handlers are off:
 * a SIGTERM/SIGINT runs the benchmark's clean-ups (lib.mjs), which close this browser first.
 * Returns { browser, pid, close() }; close() ends only the browser this call started.
 */
export async function launchBrowser() {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  const pid = server.process().pid;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Playwright closes the browser and, if it is still there, kills the process it started.
    let timer;
    await Promise.race([
      server.close(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, 15_000);
      }),
    ]);
    clearTimeout(timer);
    if (server.process().exitCode === null && server.process().signalCode === null) {
      server.process().kill('SIGKILL');
    }
  };
  const drop = cleanUpOnSignal(close);
  const browser = await chromium.connect(server.wsEndpoint());
  return {
    browser,
    pid,
    async close() {
      await browser.close().catch(() => undefined);
      await close();
      drop();
    },
  };
}

/** A fresh context (own cache, cookies and storage) at a desktop size. */
export function newContext(browser, baseURL, options = {}) {
  return browser.newContext({ baseURL, viewport: VIEWPORT, ...options });
}

/** Signs in on the login page the guard shows, as a person would (e2e/helpers/session.ts). */
export async function signIn(page) {
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The devices list's rows (packages/web/src/features/nodes/components/node-table.tsx). */
export const ROWS_SELECTOR = '[data-testid="node-table"] tbody tr[data-node-id]';
