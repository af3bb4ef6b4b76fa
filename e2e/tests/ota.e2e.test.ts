import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES, type ImageList, type NodeInfo } from '@fleetdeck/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { apiJson, apiToken, startServer, type RunningServer } from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';
import { startSimulator, type RunningSimulator } from '../helpers/simulator.js';

const NODES = 12;

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let simulator: RunningSimulator | undefined;
let token: string;
/** The (type, model) most simulated nodes share, and how many share it. */
let target: { type: string; model: string; count: number; groupName: string };

const api = <T>(method: string, url: string, body?: unknown): Promise<T> =>
  apiJson<T>(server.url, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  simulator = await startSimulator(server, NODES, ['--ota-fail-rate', '0']);
  token = await apiToken(server.url);
  const { node_info: nodes } = await api<{ node_info: NodeInfo[] }>(
    'GET',
    `/v1/admin/nodes?num_records=${NODES}`,
  );
  const counts = new Map<string, number>();
  for (const node of nodes) {
    const key = `${node.type}\n${node.model}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const [best = '', count = 0] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  const [type = '', model = ''] = best.split('\n');
  target = { type, model, count, groupName: `${model} units` };
  await api('POST', '/v1/admin/node_group', {
    group_name: target.groupName,
    node_type: type,
    node_model: model,
  });
});

afterAll(async () => {
  simulator?.stop();
  await closeBrowser?.();
  await server?.stop();
});

/** The job details page's count for one outcome, e.g. 'success'. */
const outcome = (page: Page, key: string) =>
  page
    .getByTestId(`progress-${key}`)
    .innerText()
    .then((text) => Number(/(\d+)\s*$/.exec(text.trim())?.[1] ?? NaN));

describe('firmware over the air to a simulated fleet', () => {
  it('uploads an image, pushes it to a group and watches every node download, verify and succeed', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/home/firmware-images');
    await page.getByRole('button', { name: 'Add Image' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Image name').fill('Spring update 9.0');
    await dialog.getByLabel(/^Type/).click();
    await page.getByRole('option', { name: target.type, exact: true }).click();
    await dialog.getByRole('button', { name: 'Advanced' }).click();
    await dialog.getByLabel('Firmware version').fill('9.0.0');
    await dialog.getByLabel('Model').fill(target.model);
    const image = Buffer.alloc(600 * 1024);
    for (let i = 0; i < image.length; i++) image[i] = (i * 31 + 7) & 0xff;
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'spring-9.0.0.bin',
      mimeType: 'application/octet-stream',
      buffer: image,
    });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect
      .poll(() => page.getByText(MESSAGES.firmwareImageAdded).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const row = page.getByTestId('image-table').getByRole('row', { name: /Spring update 9\.0/ });
    await row.waitFor();
    await screenshot(page, 'ota-images-after-upload');

    await page.getByRole('button', { name: 'Start OTA Spring update 9.0' }).click();
    const start = page.getByRole('dialog');
    await start.getByLabel('Job name').fill('Spring rollout');
    await start.getByTestId('ota-group-picker').click();
    await page.getByRole('option', { name: target.groupName }).click();
    await page.keyboard.press('Escape');
    expect(await start.getByLabel('Force Push').isChecked()).toBe(true);
    await screenshot(page, 'ota-start-modal');
    await start.getByRole('button', { name: 'Start' }).click();
    await start.getByRole('button', { name: 'View job details' }).click();
    await page.waitForURL(/\/home\/job-details\//);

    await expect
      .poll(() => outcome(page, 'success'), { timeout: 60_000, interval: 500 })
      .toBe(target.count);
    await expect
      .poll(() => page.getByTestId('job-status').innerText(), { timeout: 10_000 })
      .toMatch(/finished/i);
    expect(await outcome(page, 'failed')).toBe(0);
    await screenshot(page, 'ota-job-finished');

    const updated = await api<{ total: number }>(
      'GET',
      `/v1/admin/nodes?fw_version=9.0.0&num_records=1`,
    );
    expect(updated.total).toBe(target.count);
    await context.close();
  });

  it('has every node refuse an image whose stored bytes were tampered with', async () => {
    const created = await api<{ ota_image_id: string }>('POST', '/v1/admin/otaimage', {
      image_name: 'Tampered 10.0',
      type: target.type,
      model: target.model,
      fw_version: '10.0.0',
      base64_fwimage: Buffer.alloc(200 * 1024, 3).toString('base64'),
    });
    // Flip one byte of the stored file, as a compromised disk or mirror would.
    const file = path.join(server.dataDir, 'blobs', 'images', created.ota_image_id);
    const bytes = fs.readFileSync(file);
    bytes[1000] = (bytes[1000] ?? 0) ^ 0x01;
    fs.writeFileSync(file, bytes);
    const groups = await api<{ groups: Array<{ group_id: string; group_name: string }> }>(
      'GET',
      '/v1/admin/node_group',
    );
    const group = groups.groups.find((g) => g.group_name === target.groupName);
    const job = await api<{ ota_job_id: string }>('POST', '/v1/admin/otajob?force_push=true', {
      ota_job_name: 'Tampered rollout',
      ota_image_id: created.ota_image_id,
      groups: [group?.group_id],
    });

    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`/home/job-details/${job.ota_job_id}`);
    await expect
      .poll(() => outcome(page, 'failed'), { timeout: 60_000, interval: 500 })
      .toBe(target.count);
    expect(await outcome(page, 'success')).toBe(0);
    const images = await api<ImageList>(
      'GET',
      `/v1/admin/otaimage?ota_image_id=${created.ota_image_id}`,
    );
    expect(images.ota_images[0]?.fw_version).toBe('10.0.0');
    const still = await api<{ total: number }>(
      'GET',
      '/v1/admin/nodes?fw_version=10.0.0&num_records=1',
    );
    expect(still.total).toBe(0);
    await screenshot(page, 'ota-job-tampered');
    await context.close();
  });
});
