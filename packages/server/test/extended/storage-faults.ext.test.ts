import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  startBuiltServer,
  within,
  type Answer,
  type BuiltServer,
} from './built-server.js';

/**
 * QUALITY R2 (tier B, `npm run test:extended`): disk full and I/O errors. The built server runs
 * on SQLite with its data directory on a 48 MiB tmpfs this test mounts (so it needs root); the
 * test fills that file system to the last byte, and injects EIO into SQLite's writes with
 * `strace -e inject`. Pass: no crash, a clear 507 or 503 to the caller, no partial firmware file
 * kept or served, and everything works again within 10 s of space (or the disk) returning.
 */
const ADMIN = { user_name: 'storage.faults@fleetdeck.test', password: 'Harbor-Console-2031' };
const RECOVERY_MS = 10_000;
const SHUTDOWN_MS = 25_000;

let mountPoint: string;
let dataDir: string;
let server: BuiltServer;
let token: string;
const fillers: string[] = [];

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.error}`);
}

/** Writes filler files until the file system refuses a single byte more. */
function fillDisk(): void {
  const file = path.join(mountPoint, `filler-${fillers.length}`);
  fillers.push(file);
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [1024 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  expect(fs.statfsSync(mountPoint).bavail).toBe(0);
}

function freeDisk(): void {
  for (const file of fillers.splice(0)) fs.rmSync(file, { force: true });
}

const call = (method: string, url: string, body?: unknown, auth: string | null = token) =>
  callApi(server.url, method, url, body, auth);

const login = () => call('POST', '/v1/login', ADMIN, null);

function image(name: string, size: number) {
  return {
    image_name: name,
    type: 'Refrigerator',
    fw_version: `2.0.${size % 1000}`,
    base64_fwimage: Buffer.alloc(size, name.charCodeAt(0)).toString('base64'),
  };
}

let nodeSerial = 0;
function nodes(count: number) {
  return {
    nodes: Array.from({ length: count }, () => {
      nodeSerial += 1;
      return {
        node_id: `r2-node-${nodeSerial}`,
        name: `Fridge ${nodeSerial}`,
        type: 'Refrigerator',
        model: 'FD-RF-300',
        fw_version: '1.0.0',
        tags: ['location:Pune', `esp.serial_num:R2S${String(nodeSerial).padStart(6, '0')}`],
      };
    }),
  };
}

async function imageNames(): Promise<string[]> {
  const list = await call('GET', '/v1/admin/otaimage?num_records=100');
  expect(list.status).toBe(200);
  return ((list.body.ota_images as Array<{ image_name: string }> | undefined) ?? []).map(
    (entry) => entry.image_name,
  );
}

async function nodeTotal(): Promise<number> {
  const list = await call('GET', '/v1/admin/nodes?num_records=1');
  expect(list.status).toBe(200);
  return list.body.total as number;
}

function blobFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(path.join(dataDir, 'blobs'), full));
    }
  };
  walk(path.join(dataDir, 'blobs'));
  return found.sort();
}

const expectAlive = () => server.expectAlive();

function expectFailure(answer: Answer, status: number, description: string, code: number): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toEqual({ status: 'failure', description, error_code: code });
}

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error('R2 mounts a tmpfs to fill it: run `npm run test:extended` as root.');
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-r2-'));
  run('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mountPoint]);
  dataDir = path.join(mountPoint, 'data');
  fs.mkdirSync(dataDir);

  server = await startBuiltServer({ dataDir, admin: ADMIN });
  const signedIn = await login();
  expect(signedIn.status).toBe(200);
  token = signedIn.body.accesstoken as string;
});

afterAll(async () => {
  if (process.env.R2_SERVER_LOG && server)
    fs.writeFileSync(process.env.R2_SERVER_LOG, server.output());
  freeDisk();
  await server?.kill();
  if (mountPoint) {
    spawnSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  }
});

describe('disk full and I/O errors on SQLite (QUALITY R2)', () => {
  it('refuses writes with a clear 507 while the disk is full, keeps no partial firmware, and recovers within 10 s', async () => {
    const registered = await call('POST', '/v1/admin/node_ids', nodes(1));
    expect(registered.status).toBe(200);
    const device = (registered.body.nodes as Array<Record<string, string>>)[0]!;
    expect((await call('POST', '/v1/admin/otaimage', image('Before', 200_000))).status).toBe(200);
    const blobsBefore = blobFiles();
    // A signed upload URL handed out before the disk filled up.
    const upload = await call('GET', '/v1/admin/otaimage/package/upload?file_name=late.bin');
    expect(upload.status).toBe(200);

    fillDisk();

    expectFailure(
      await call('POST', '/v1/admin/otaimage', image('During', 600_000)),
      507,
      SERVER_MESSAGES.storageFull,
      ERROR_CODES.storageFull,
    );
    const put = await fetch(upload.body.url as string, {
      method: 'PUT',
      body: Buffer.alloc(600_000, 7),
    });
    expect(put.status).toBe(507);
    expect(await put.json()).toMatchObject({ error_code: ERROR_CODES.storageFull });
    const fromUpload = await call('POST', '/v1/admin/otaimage/package', {
      image_name: 'Late',
      type: 'Refrigerator',
      fw_version: '2.0.1',
      file_path: upload.body.file_path,
    });
    expect(fromUpload.status).toBeGreaterThanOrEqual(400);
    expect(fromUpload.status).not.toBe(500);
    // No partial firmware file is kept, listed or served.
    expect(blobFiles()).toEqual(blobsBefore);
    expect(await imageNames()).toEqual(['Before']);

    // Registering nodes makes the database grow: once SQLite's write-ahead log has no room left
    // either, a registration is refused whole with a clear 507 and nothing of it is stored.
    let refusedAt = -1;
    for (let attempt = 0; attempt < 40 && refusedAt < 0; attempt += 1) {
      const before = await nodeTotal();
      const answer = await call('POST', '/v1/admin/node_ids', nodes(500));
      if (answer.status === 200) continue;
      expectFailure(answer, 507, SERVER_MESSAGES.storageFull, ERROR_CODES.storageFull);
      expect(await nodeTotal()).toBe(before);
      refusedAt = attempt;
    }
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    const totalWhileFull = await nodeTotal();
    expectAlive();

    // A node reports while the disk is full; its QoS 1 message must become durable later.
    const client = await mqtt.connectAsync(server.mqttUrl, {
      clientId: device.node_id,
      username: device.mqtt_username,
      password: device.mqtt_password,
      reconnectPeriod: 0,
    });
    const acked = client.publishAsync(
      `node/${device.node_id}/params/local`,
      JSON.stringify({ Fridge: { Temperature: 4, Door: 'closed' } }),
      { qos: 1 },
    );

    freeDisk();
    const took = await within(RECOVERY_MS, async () => {
      const answer = await call('POST', '/v1/admin/otaimage', image('After', 600_000));
      return answer.status === 200;
    });
    expect(took).toBeLessThanOrEqual(RECOVERY_MS);
    await Promise.race([
      acked,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('params not durable in 10 s')), RECOVERY_MS),
      ),
    ]);
    await client.endAsync();
    const stored = await call('GET', `/v1/admin/nodes?node_id=${device.node_id}&node_details=true`);
    expect(JSON.stringify(stored.body)).toContain('"Temperature":4');
    expect((await call('POST', '/v1/admin/node_ids', nodes(300))).status).toBe(200);
    expect(await nodeTotal()).toBe(totalWhileFull + 300);
    expect(await imageNames()).toEqual(expect.arrayContaining(['Before', 'After']));
    expect((await login()).status).toBe(200);
    // The background checkpointer outlived the full disk: it said so and carries on.
    if (server.output().includes('SQLite checkpoints are failing'))
      await within(RECOVERY_MS, () =>
        Promise.resolve(server.output().includes('SQLite checkpoints work again')),
      );
    expect(server.output()).not.toContain('the background WAL checkpointer stopped');
    expectAlive();
  });

  it('answers 503 while SQLite’s writes fail with EIO, and recovers within 10 s of the disk returning', async () => {
    const which = spawnSync('strace', ['-V']);
    if (which.status !== 0)
      throw new Error('R2 injects I/O errors with strace: apt-get install strace');
    const totalBefore = await nodeTotal();
    const strace = spawn(
      'strace',
      [
        '-f',
        '-qq',
        '-o',
        '/dev/null',
        '-e',
        'trace=pwrite64',
        '-e',
        'inject=pwrite64:error=EIO',
        '-p',
        String(server.pid),
      ],
      { stdio: 'ignore' },
    );
    const stopped = new Promise((resolve) => strace.once('exit', resolve));
    try {
      await within(5_000, async () => {
        const answer = await call('POST', '/v1/admin/node_ids', nodes(50));
        if (answer.status === 200) return false;
        expectFailure(answer, 503, SERVER_MESSAGES.storageFailed, ERROR_CODES.storageFailed);
        return true;
      });
      // Reads still work; the server stays up.
      expect((await call('GET', '/v1/admin/nodes?num_records=5')).status).toBe(200);
      expectAlive();
    } finally {
      strace.kill('SIGTERM');
      await stopped;
    }
    const registeredBefore = (await nodeTotal()) - totalBefore;
    await within(RECOVERY_MS, async () => {
      const answer = await call('POST', '/v1/admin/node_ids', nodes(50));
      return answer.status === 200;
    });
    expect(await nodeTotal()).toBe(totalBefore + registeredBefore + 50);
    expectAlive();
  });

  it('shuts down on SIGTERM within the deadline while the disk is full', async () => {
    fillDisk();
    const started = Date.now();
    server.child.kill('SIGTERM');
    const code = await Promise.race([
      server.exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), SHUTDOWN_MS)),
    ]);
    expect(code, server.output()).toBe(0);
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_MS);
    expect(server.output()).not.toMatch(/uncaught|unhandledRejection/i);
  });
});
