import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

/**
 * Debian's Chromium, headless, with no background traffic. Playwright gives every launch a fresh,
 * temporary user-data dir of its own (it refuses an explicit --user-data-dir).
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
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
  return {
    browser,
    close: async () => {
      await browser.close();
    },
  };
}

/** A new browser context at a desktop size. */
export function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
}

/** Saves a screenshot under e2e/artifacts for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // A full-page capture draws fixed elements where the viewport was, i.e. across the middle of a
  // long page: pin the shell's header, sidebar, footer and skip link to the document for the
  // capture.
  const pinned = await page
    .addStyleTag({
      content:
        '.mantine-AppShell-header, .mantine-AppShell-navbar, .skip-link { position: absolute !important; } .mantine-AppShell-footer { position: static !important; }',
    })
    .catch(() => undefined);
  try {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  } finally {
    await pinned?.evaluate((element) => (element as ChildNode).remove()).catch(() => undefined);
  }
}
