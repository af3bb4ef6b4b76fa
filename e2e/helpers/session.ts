import type { Page } from 'playwright-core';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from './fleetdeck-server.js';

/** Signs in through the login page as a person would, and waits for the /home shell. */
export async function signIn(
  page: Page,
  email = E2E_ADMIN_EMAIL,
  password = E2E_ADMIN_PASSWORD,
): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/home/);
}
