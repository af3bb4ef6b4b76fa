import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImageList, NodeInfo } from '@fleetdeck/contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BackupError,
  MANIFEST_FILE,
  backup,
  restore,
  type BackupTarget,
} from '../src/ops/backup.js';
import { registerNodes } from './helpers/end-users.js';
import {
  DIALECTS,
  apiLogin,
  createTestDatabase,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

// QUALITY.md R8: backup and restore of the database and blobs; the restored state equals the
// original.

const targetOf = (server: TestServer): BackupTarget => ({
  dataDir: server.config.dataDir,
  databaseUrl: server.config.databaseUrl,
  externalBlobs: false,
});

/** Firmware bytes that are not all alike (a wrong or cut copy shows). */
const FIRMWARE = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 251));

async function state(server: TestServer, token: string) {
  const get = async (url: string) => {
    const response = await server.app.inject({
      method: 'GET',
      url,
      headers: { authorization: token },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const nodes = (await get('/v1/admin/nodes?num_records=100')).json<{ node_info: NodeInfo[] }>();
  const images = (await get('/v1/admin/otaimage')).json<ImageList>().ota_images;
  const firmware: Buffer[] = [];
  for (const image of images) {
    const url = new URL(image.image_url);
    firmware.push((await get(`${url.pathname}${url.search}`)).rawPayload);
  }
  return {
    nodes: nodes.node_info,
    // The download URL is signed afresh on every list; the rest of the image is what is stored.
    images: images.map(({ image_url: _url, ...image }) => image),
    firmware,
  };
}

describe.each(DIALECTS)('backup and restore on %s (R8)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-backup-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('restores the database and blobs as they were when the backup was taken, while the server ran', async () => {
    const original = await createTestServer(dialect);
    cleanups.push(original.close);
    const { accesstoken: token } = await apiLogin(original.app);
    await registerNodes(original, token, ['BK1', 'BK2', 'BK3']);
    const uploaded = await original.app.inject({
      method: 'POST',
      url: '/v1/admin/otaimage',
      headers: { authorization: token },
      payload: {
        image_name: 'Fridge 2.1 stable',
        type: 'Refrigerator',
        fw_version: '2.1.0',
        base64_fwimage: FIRMWARE.toString('base64'),
      },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const before = await state(original, token);
    expect(before.nodes.map((n) => n.node_id)).toEqual(['BK1', 'BK2', 'BK3']);
    expect(before.firmware[0]?.equals(FIRMWARE)).toBe(true);

    const out = path.join(tempDir(), 'backup');
    const manifest = await backup(targetOf(original), out);
    expect(manifest).toMatchObject({ format: 1, dialect, blobs: { files: 1 } });
    expect(manifest.blobs!.bytes).toBe(FIRMWARE.length);
    // A change after the backup is not in it.
    await registerNodes(original, token, ['BK4']);

    const restoredDb = await createTestDatabase(dialect);
    cleanups.push(restoredDb.cleanup);
    const target: BackupTarget = {
      dataDir: restoredDb.env.DATA_DIR!,
      databaseUrl: restoredDb.env.DATABASE_URL,
      externalBlobs: false,
    };
    await restore(target, out);
    const restored = await createTestServer(dialect, { env: restoredDb.env });
    cleanups.push(restored.close);
    // The admin's password came back with the users, and the state is the one backed up.
    const { accesstoken: restoredToken } = await apiLogin(restored.app);
    expect(await state(restored, restoredToken)).toEqual(before);

    // Restoring over data needs --force, and then replaces it.
    await expect(restore(target, out)).rejects.toThrow(/--force/);
    await registerNodes(restored, restoredToken, ['BK9']);
    await restored.close();
    cleanups.splice(cleanups.indexOf(restored.close), 1);
    await restore(target, out, { force: true });
    const again = await createTestServer(dialect, { env: restoredDb.env });
    cleanups.push(again.close);
    expect(await state(again, (await apiLogin(again.app)).accesstoken)).toEqual(before);
  });

  it('refuses a non-empty backup directory, a directory without a manifest and a backup of the other dialect', async () => {
    const server = await createTestServer(dialect);
    cleanups.push(server.close);
    const busy = tempDir();
    fs.writeFileSync(path.join(busy, 'keep.txt'), 'mine');
    await expect(backup(targetOf(server), busy)).rejects.toThrow(BackupError);
    expect(fs.readdirSync(busy)).toEqual(['keep.txt']);

    await expect(restore(targetOf(server), busy)).rejects.toThrow(
      new RegExp(`holds no ${MANIFEST_FILE}`),
    );

    const out = path.join(tempDir(), 'backup');
    await backup(targetOf(server), out);
    const manifestFile = path.join(out, MANIFEST_FILE);
    const other = dialect === 'sqlite' ? 'postgres' : 'sqlite';
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, dialect: other }));
    const empty = await createTestDatabase(dialect);
    cleanups.push(empty.cleanup);
    await expect(
      restore(
        { dataDir: empty.env.DATA_DIR!, databaseUrl: empty.env.DATABASE_URL, externalBlobs: false },
        out,
      ),
    ).rejects.toThrow(
      `The backup holds a ${other} database, but this installation uses ${dialect}`,
    );
  });
});
