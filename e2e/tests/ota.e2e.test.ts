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
    // An empty submit complains; each complaint goes once the user changes what it is about.
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const missing = dialog.getByRole('alert').filter({ hasText: MESSAGES.provideAllDetails });
    await missing.waitFor();
    const nameInput = dialog.getByLabel('Image name');
    const typeInput = dialog.getByLabel(/^Type/);
    expect(await nameInput.getAttribute('aria-invalid')).toBe('true');
    expect(await typeInput.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'ota-add-image-validation');
    await nameInput.fill('Spring update 9.0');
    await expect.poll(() => missing.count()).toBe(0);
    expect(await nameInput.getAttribute('aria-invalid')).not.toBe('true');
    expect(await typeInput.getAttribute('aria-invalid')).toBe('true');
    await typeInput.click();
    await page.getByRole('option', { name: target.type, exact: true }).click();
    expect(await typeInput.getAttribute('aria-invalid')).not.toBe('true');
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
    await expect.poll(() => dialog.locator('[aria-invalid="true"]').count()).toBe(0);
    await screenshot(page, 'ota-add-image-filled');
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
    // No target: the complaint stays readable with the dropdown open and goes once the user
    // switches to Nodes or types a search.
    await start.getByRole('button', { name: 'Start' }).click();
    const noTarget = start.getByText(MESSAGES.selectGroupOrNode);
    await noTarget.waitFor();
    await start.getByRole('radio', { name: 'Nodes' }).click();
    await expect.poll(() => noTarget.count()).toBe(0);
    await start.getByRole('radio', { name: 'Groups' }).click();
    await start.getByRole('button', { name: 'Start' }).click();
    await noTarget.waitFor();
    const groupPicker = start.getByTestId('ota-group-picker');
    await groupPicker.click();
    const listbox = page.getByRole('listbox');
    await listbox.waitFor();
    const errorBox = await noTarget.boundingBox();
    const listBox = await listbox.boundingBox();
    const pickerBox = await groupPicker.boundingBox();
    if (!errorBox || !listBox || !pickerBox)
      throw new Error('picker, error or dropdown not laid out');
    // The error sits above the input; the dropdown opens below it.
    expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(pickerBox.y + 1);
    expect(listBox.y).toBeGreaterThanOrEqual(errorBox.y + errorBox.height);
    await screenshot(page, 'ota-start-modal-no-target');
    await groupPicker.pressSequentially(target.model.slice(0, 2));
    await expect.poll(() => noTarget.count()).toBe(0);
    await groupPicker.fill('');
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

    // The card opens with the job's fields, not with a band of buttons.
    const fields = page.getByTestId('job-fields');
    const card = await fields.boundingBox();
    const firstLabel = await fields.getByText('Job Name', { exact: true }).boundingBox();
    if (!card || !firstLabel) throw new Error('job fields not laid out');
    expect(firstLabel.y - card.y).toBeLessThan(30);

    // One node's history: newest first, the progress of the same second in the order it came.
    await page.getByTestId('job-node-table').getByRole('button').first().click();
    const history = page.getByTestId('node-history');
    await expect
      .poll(() => history.getByText(/Downloaded \d+%/).count(), { timeout: 10_000 })
      .toBeGreaterThan(1);
    const infos = (await history.locator('tbody tr').allInnerTexts()).map((row) => row.trim());
    const percents = infos
      .map((row) => /Downloaded (\d+)%/.exec(row)?.[1])
      .filter((percent) => percent !== undefined)
      .map(Number);
    expect(percents).toEqual([...percents].sort((a, b) => b - a));
    const startingAt = infos.findIndex((row) => row.includes('Starting'));
    const lastProgressAt = infos.findLastIndex((row) => /Downloaded \d+%/.test(row));
    expect(startingAt).toBeGreaterThan(lastProgressAt);
    expect(infos[0]).toMatch(/success/i);
    await screenshot(page, 'ota-node-history');
    await page.keyboard.press('Escape');

    const updated = await api<{ total: number }>(
      'GET',
      `/v1/admin/nodes?fw_version=9.0.0&num_records=1`,
    );
    expect(updated.total).toBe(target.count);
    await context.close();
  });

  it('opens the details of an archived firmware image and of an archived fault image from their archived lists', async () => {
    const images = await api<ImageList>('GET', '/v1/admin/otaimage?num_records=100');
    const spring = images.ota_images.find((image) => image.image_name === 'Spring update 9.0');
    if (!spring) throw new Error('the uploaded image is missing');
    await api('PUT', `/v1/admin/otaimage?ota_image_id=${spring.ota_image_id}&archive=true`, {});
    const fault = await api<{ ota_image_id: string }>('POST', '/v1/admin/otaimage', {
      image_name: 'E5 fix 9.1',
      type: target.type,
      model: target.model,
      fw_version: '9.1.0',
      fault_id: 'E5',
      base64_fwimage: Buffer.alloc(1024, 5).toString('base64'),
    });
    await api('PUT', `/v1/admin/otaimage?ota_image_id=${fault.ota_image_id}&archive=true`, {});

    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    for (const [list, name, id, detailsPath] of [
      ['/home/archived-firmware-images', 'Spring update 9.0', spring.ota_image_id, 'image-details'],
      [
        '/home/fault-archived-fault-images',
        'E5 fix 9.1',
        fault.ota_image_id,
        'fault-image-details',
      ],
    ] as const) {
      await page.goto(list);
      await page.getByTestId('image-table').getByRole('link', { name }).click();
      await page.waitForURL(new RegExp(`/home/${detailsPath}/${id}$`));
      const fields = page.getByTestId('image-fields');
      await fields.getByText('Archived', { exact: true }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
      expect(await page.getByTestId('image-not-found').count()).toBe(0);
      await screenshot(page, `ota-${detailsPath}-archived`);
    }
    await context.close();
  });

  it('shows a job cancelled before any node updated as cancelled, not as completed', async () => {
    const image = await api<{ ota_image_id: string }>('POST', '/v1/admin/otaimage', {
      image_name: 'Never sent 11.0',
      type: target.type,
      model: target.model,
      fw_version: '11.0.0',
      base64_fwimage: Buffer.alloc(1024, 7).toString('base64'),
    });
    const { node_info: nodes } = await api<{ node_info: NodeInfo[] }>(
      'GET',
      `/v1/admin/nodes?num_records=3`,
    );
    // Not force-pushed: connected nodes are offered it only at their next connect or otafetch.
    const job = await api<{ ota_job_id: string }>('POST', '/v1/admin/otajob', {
      ota_job_name: 'Cancelled at once',
      ota_image_id: image.ota_image_id,
      nodes: nodes.map((node) => node.node_id),
    });

    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`/home/job-details/${job.ota_job_id}`);
    await page.getByRole('button', { name: 'Cancel Job' }).click();
    await page.getByRole('button', { name: 'Yes, Cancel Job' }).click();
    await page.getByTestId('job-action-result').waitFor();
    expect(await page.getByTestId('job-action-result').innerText()).toBe(MESSAGES.jobCancelled);
    await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => page.getByTestId('job-status').innerText(), { timeout: 10_000 })
      .toMatch(/cancelled/i);
    await expect
      .poll(() => page.getByTestId('job-progress-done').innerText())
      .toBe('0 of 3 nodes completed, 3 cancelled before updating');
    expect(await page.getByTestId('job-completed-count').innerText()).toBe(
      '3 (3 cancelled, not updated)',
    );
    expect(await outcome(page, 'cancelled')).toBe(3);
    await screenshot(page, 'ota-job-cancelled');
    // The OTA Jobs list says the same in its Completed Count column.
    await page.goto('/home/ota-jobs/');
    const row = page.locator(`tr[data-job-id="${job.ota_job_id}"]`);
    await row.waitFor();
    await expect
      .poll(() => row.locator('td').nth(2).innerText())
      .toBe('3 (3 cancelled, not updated)');
    await context.close();
  });

  it('leads from the Fault Images page to the fault jobs and from the firmware images to the OTA jobs', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/home/Fault-images');
    await page.getByTestId('image-table').waitFor();
    await screenshot(page, 'ota-fault-images-links');
    await page.getByRole('link', { name: 'Fault jobs' }).click();
    await page.waitForURL(/\/home\/faultjobs$/);
    await page.getByRole('heading', { level: 1, name: 'Fault Jobs' }).waitFor();
    await page.goto('/home/firmware-images');
    await page.getByRole('link', { name: 'OTA jobs' }).click();
    await page.waitForURL(/\/home\/ota-jobs\/?$/);
    await page.getByRole('heading', { level: 1, name: 'OTA Jobs' }).waitFor();
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
