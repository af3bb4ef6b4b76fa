import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);

/** Presses Tab from where focus is until `locator` has it; fails if it never does. */
export async function tabTo(page: Page, locator: Locator, maxPresses = 40): Promise<void> {
  for (let i = 0; i < maxPresses; i += 1) {
    await page.keyboard.press('Tab');
    if (await isFocused(locator)) return;
  }
  throw new Error(`Tab never reached ${String(locator)}`);
}

/**
 * Checks that `region` (found by its role and name) is wider inside than on screen, takes focus
 * by Tab from where focus is, and scrolls sideways with the arrow key.
 */
export async function expectKeyboardScrollable(page: Page, region: Locator): Promise<void> {
  await region.waitFor();
  await expect.poll(() => region.getAttribute('tabindex')).toBe('0');
  const widths = await region.evaluate((element) => ({
    inside: element.scrollWidth,
    shown: element.clientWidth,
  }));
  expect(widths.inside).toBeGreaterThan(widths.shown);
  await tabTo(page, region, 60);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
}
