import { createHash, createPublicKey, verify } from 'node:crypto';
import net from 'node:net';
import {
  MESSAGES,
  SERVER_MESSAGES,
  otaManifestText,
  type ImageList,
  type OtaImage,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

/** Deterministic pseudo-random bytes standing in for a firmware image. */
function imageBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

describe.each(DIALECTS)('firmware images on %s', (dialect) => {
  let server: TestServer;
  let token: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  const upload = async (fields: Record<string, string>, bytes: Buffer) => {
    const response = await call('POST', '/v1/admin/otaimage', {
      ...fields,
      base64_fwimage: bytes.toString('base64'),
    });
    return response;
  };

  const imageById = async (id: string, archived = false): Promise<OtaImage> => {
    const response = await call(
      'GET',
      `/v1/admin/otaimage?ota_image_id=${id}&archived=${archived}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const image = response.json<ImageList>().ota_images[0];
    if (!image) throw new Error(`image ${id} not listed`);
    return image;
  };

  /** The path and query of a signed URL, for app.inject. */
  const local = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  beforeAll(async () => {
    server = await createTestServer(dialect, { env: { OTA_IMAGE_MAX_MB: '1' } });
    token = (await apiLogin(server.app)).accesstoken;
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores a base64 image with its size, MD5, SHA-256 and a manifest signature that verifies', async () => {
    const bytes = imageBytes(150_000);
    const response = await upload(
      {
        image_name: "AC main (v2.1)_final-build!*'",
        type: 'Air Conditioner',
        fw_version: '2.1.0',
        model: 'FD-AC-9',
      },
      bytes,
    );
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json<{ ota_image_id: string; description: string }>();
    expect(created.description).toBe(MESSAGES.firmwareImageAdded);
    const image = await imageById(created.ota_image_id);
    expect(image.file_size).toBe(bytes.length);
    expect(image.file_md5).toBe(createHash('md5').update(bytes).digest('hex'));
    expect(image.file_sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(image.package).toBe(false);

    const key = await call('GET', '/v1/otaimage/signing_key');
    const publicKey = createPublicKey(key.json<{ public_key: string }>().public_key);
    const manifest = {
      ota_image_id: image.ota_image_id,
      type: image.type,
      model: image.model,
      fw_version: image.fw_version,
      file_size: image.file_size,
      sha256: image.file_sha256,
    };
    const signature = Buffer.from(image.signature, 'base64');
    expect(verify(null, Buffer.from(otaManifestText(manifest)), publicKey, signature)).toBe(true);
    expect(
      verify(
        null,
        Buffer.from(otaManifestText({ ...manifest, fw_version: '9.9.9' })),
        publicKey,
        signature,
      ),
    ).toBe(false);
  });

  it('serves the image through its signed URL, whole and by Range, and refuses altered URLs', async () => {
    const bytes = imageBytes(70_000, 7);
    const created = (await upload({ image_name: 'range test', type: 'Refrigerator' }, bytes)).json<{
      ota_image_id: string;
    }>();
    const image = await imageById(created.ota_image_id);

    const whole = await server.app.inject({ method: 'GET', url: local(image.image_url) });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    const tail = await server.app.inject({
      method: 'GET',
      url: local(image.image_url),
      headers: { range: 'bytes=60000-' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 60000-69999/${bytes.length}`);
    expect(tail.rawPayload.equals(bytes.subarray(60_000))).toBe(true);

    const beyond = await server.app.inject({
      method: 'GET',
      url: local(image.image_url),
      headers: { range: 'bytes=90000-' },
    });
    expect(beyond.statusCode).toBe(416);

    const url = new URL(image.image_url);
    const forged = new URL(url);
    forged.searchParams.set('e', String(Number(url.searchParams.get('e')) + 3600));
    const refused = await server.app.inject({ method: 'GET', url: local(forged.toString()) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      status: 'failure',
      description: SERVER_MESSAGES.downloadUrlInvalid,
    });

    const otherKey = image.image_url.replace(image.ota_image_id, 'AAAAAAAAAAAAAAAAAAAAAA');
    expect((await server.app.inject({ method: 'GET', url: local(otherKey) })).statusCode).toBe(403);
    const traversal = local(image.image_url).replace(
      `images/${image.ota_image_id}`,
      'images/..%2F..%2Ffleetdeck.db',
    );
    expect((await server.app.inject({ method: 'GET', url: traversal })).statusCode).toBe(403);
  });

  it('validates images with the spec messages and refuses oversized ones with 413', async () => {
    const bytes = imageBytes(1000);
    const cases: Array<[Record<string, string>, string]> = [
      [{ image_name: '', type: 'Refrigerator' }, MESSAGES.provideAllDetails],
      [{ image_name: 'ok', type: '' }, MESSAGES.provideAllDetails],
      [{ image_name: 'bad/name', type: 'Refrigerator' }, MESSAGES.invalidImageName],
      [{ image_name: '<script>', type: 'Refrigerator' }, MESSAGES.invalidImageName],
      [{ image_name: 'x'.repeat(65), type: 'Refrigerator' }, SERVER_MESSAGES.fieldTooLong],
      [
        { image_name: 'ok', type: 'Refrigerator', model: 'm'.repeat(65) },
        SERVER_MESSAGES.fieldTooLong,
      ],
      [
        { image_name: 'ok', type: 'Refrigerator', file_name: 'image.exe' },
        SERVER_MESSAGES.invalidFileType,
      ],
      [
        { image_name: 'ok', type: 'Refrigerator', file_name: 'image.zip' },
        SERVER_MESSAGES.invalidZip,
      ],
    ];
    for (const [fields, message] of cases) {
      const response = await upload(fields, bytes);
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json()).toMatchObject({ status: 'failure', description: message });
    }
    const missing = await call('POST', '/v1/admin/otaimage', {
      image_name: 'ok',
      type: 'Refrigerator',
    });
    expect(missing.json()).toMatchObject({ description: MESSAGES.provideAllDetails });

    const tooBig = await upload(
      { image_name: 'big', type: 'Refrigerator' },
      imageBytes(1024 * 1024 + 1),
    );
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({
      status: 'failure',
      description: SERVER_MESSAGES.imageTooLarge,
    });
    const wayTooBig = await upload(
      { image_name: 'big', type: 'Refrigerator' },
      imageBytes(2 * 1024 * 1024),
    );
    expect(wayTooBig.statusCode).toBe(413);
    expect(wayTooBig.json()).toMatchObject({ status: 'failure' });
  });

  it('takes a package through the signed upload URL and refuses reuse and oversize', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), imageBytes(5000, 3)]);
    const ticket = await call('GET', '/v1/otaimage/package/upload?file_name=washer_pkg.zip');
    expect(ticket.statusCode, ticket.body).toBe(200);
    const { url, file_path: filePath } = ticket.json<{ url: string; file_path: string }>();

    const put = await server.app.inject({
      method: 'PUT',
      url: local(url),
      headers: { 'content-type': 'application/zip' },
      payload: zip,
    });
    expect(put.statusCode, put.body).toBe(200);

    const created = await call('POST', '/v1/otaimage/package', {
      file_path: filePath,
      image_name: 'washer pkg',
      type: 'Washing Machine',
      fw_version: '3.0.0',
      model: 'FD-WM-7',
    });
    expect(created.statusCode, created.body).toBe(200);
    const image = await imageById(created.json<{ ota_image_id: string }>().ota_image_id);
    expect(image.package).toBe(true);
    expect(image.file_size).toBe(zip.length);
    expect(image.file_md5).toBe(createHash('md5').update(zip).digest('hex'));

    const again = await call('POST', '/v1/otaimage/package', {
      file_path: filePath,
      image_name: 'washer pkg',
      type: 'Washing Machine',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ description: SERVER_MESSAGES.uploadNotFound });

    // QUALITY S8: traversal, absolute, NUL and backslash names never reach the store.
    for (const name of [
      '..%2Fevil.zip',
      '%2Fetc%2Fpasswd.bin',
      'a%00.bin',
      '..%5C..%5Cx.bin',
      '..',
    ]) {
      const bad = await call('GET', `/v1/otaimage/package/upload?file_name=${name}`);
      expect(bad.statusCode, name).toBe(400);
      expect(bad.json()).toMatchObject({ status: 'failure' });
    }
    // A unicode name is fine: the store keys files by a random id, not by the name.
    const unicode = await call(
      'GET',
      `/v1/otaimage/package/upload?file_name=${encodeURIComponent('ファーム 1.bin')}`,
    );
    expect(unicode.statusCode, unicode.body).toBe(200);
    const unicodeUrl = unicode.json<{ url: string }>().url;
    expect(new URL(unicodeUrl).pathname).toMatch(/^\/v1\/blobs\/uploads\/[A-Za-z0-9_-]+$/);
    const wrongType = await call('GET', '/v1/otaimage/package/upload?file_name=evil.sh');
    expect(wrongType.json()).toMatchObject({ description: SERVER_MESSAGES.invalidFileType });

    const big = await call('GET', '/v1/otaimage/package/upload?file_name=big.bin');
    const bigUrl = big.json<{ url: string }>().url;
    const tooBig = await server.app.inject({
      method: 'PUT',
      url: local(bigUrl),
      payload: imageBytes(1024 * 1024 + 10),
    });
    expect(tooBig.statusCode).toBe(413);
    const forged = await server.app.inject({
      method: 'PUT',
      url: local(bigUrl.replace(/m=\d+/, 'm=999999999')),
      payload: imageBytes(10),
    });
    expect(forged.statusCode).toBe(403);
  });

  it('makes one image of an upload however many requests name it at once, and keeps a refused one usable', async () => {
    const bytes = imageBytes(4000, 9);
    const ticket = await call('GET', '/v1/otaimage/package/upload?file_name=raced.bin');
    const { url, file_path: filePath } = ticket.json<{ url: string; file_path: string }>();
    const body = { file_path: filePath, image_name: 'raced package', type: 'Refrigerator' };

    // Named before its file arrived: refused, and the upload is still there for a retry.
    const early = await call('POST', '/v1/otaimage/package', body);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ description: SERVER_MESSAGES.uploadNotFound });
    const put = await server.app.inject({ method: 'PUT', url: local(url), payload: bytes });
    expect(put.statusCode, put.body).toBe(200);

    // Several at once (a double-click, a retrying client): one image; before, each request made
    // an image of the one file, and deleting one of them deleted the others' file.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/v1/otaimage/package', body)),
    );
    const made = answers.filter((answer) => answer.statusCode === 200);
    expect(made).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ description: SERVER_MESSAGES.uploadNotFound });
    }
    const listed = await call('GET', '/v1/admin/otaimage?image_name=raced%20package');
    expect(listed.json<ImageList>().total).toBe(1);
    const image = await imageById(made[0]!.json<{ ota_image_id: string }>().ota_image_id);
    const download = await server.app.inject({ method: 'GET', url: local(image.image_url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  it('closes the connection after refusing an upload it has not read to the end', async () => {
    // Over real HTTP: a refusal sent before the body was read left the rest of the body in a
    // kept-alive connection, and the client's next request on it hung (found under a full disk).
    const ticket = await call('GET', '/v1/otaimage/package/upload?file_name=cut.bin');
    const { pathname, search } = new URL(ticket.json<{ url: string }>().url);
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 5_000);
    });
    socket.write(
      `PUT ${pathname}${search} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${1024 * 1024 + 10}\r\n\r\n`,
    );
    socket.write(imageBytes(64 * 1024));
    const didClose = await closed;
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(didClose).toBe(true);
  });

  it('lists newest first with keyset paging that visits every image once, and filters', async () => {
    for (let i = 0; i < 7; i++)
      await upload(
        {
          image_name: `page img ${i}`,
          type: i % 2 ? 'Refrigerator' : 'Washing Machine',
          model: `PG-${i}`,
        },
        imageBytes(100, i),
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    let total: number;
    do {
      const response = await call(
        'GET',
        `/v1/admin/otaimage?num_records=3${cursor ? `&start_id=${cursor}` : ''}`,
      );
      const page = response.json<ImageList>();
      total = page.total;
      seen.push(...page.ota_images.map((image) => image.ota_image_id));
      cursor = page.next_id;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(total);

    const search = await call('GET', '/v1/admin/otaimage?contains=PAGE%20IMG');
    expect(search.json<ImageList>().total).toBe(7);
    const byModel = await call('GET', '/v1/admin/otaimage?contains=pg-3');
    expect(byModel.json<ImageList>().ota_images.map((i) => i.image_name)).toEqual(['page img 3']);
    const byType = await call('GET', '/v1/admin/otaimage?type=Refrigerator&contains=page');
    expect(byType.json<ImageList>().total).toBe(3);
    const literal = await call('GET', '/v1/admin/otaimage?contains=%25');
    expect(literal.json<ImageList>().total).toBe(0);
    const tooLong = await call('GET', `/v1/admin/otaimage?contains=${'x'.repeat(65)}`);
    expect(tooLong.statusCode).toBe(400);
  });

  it('archives, unarchives and deletes images', async () => {
    const id = (
      await upload({ image_name: 'to archive', type: 'Refrigerator' }, imageBytes(10))
    ).json<{ ota_image_id: string }>().ota_image_id;
    expect(
      (await call('PUT', `/v1/admin/otaimage?ota_image_id=${id}&archive=true`)).statusCode,
    ).toBe(200);
    const activeOnly = await call('GET', `/v1/admin/otaimage?ota_image_id=${id}&archived=false`);
    expect(activeOnly.json<ImageList>().total).toBe(0);
    expect((await imageById(id, true)).archived).toBe(true);
    expect(
      (await call('PUT', `/v1/admin/otaimage?ota_image_id=${id}&archive=false`)).statusCode,
    ).toBe(200);
    expect((await imageById(id)).archived).toBe(false);

    const image = await imageById(id);
    expect((await call('DELETE', `/v1/otaimage?ota_image_id=${id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/v1/otaimage?ota_image_id=${id}`)).statusCode).toBe(404);
    expect(
      (await server.app.inject({ method: 'GET', url: local(image.image_url) })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `/v1/admin/otaimage?ota_image_id=${id}&archive=true`)).statusCode,
    ).toBe(404);
  });

  it('finds an image by id without the archived parameter whether it is archived or not, while the plain list leaves archived images out', async () => {
    const id = (
      await upload({ image_name: 'archived lookup', type: 'Refrigerator' }, imageBytes(12, 7))
    ).json<{ ota_image_id: string }>().ota_image_id;
    const byId = async () => {
      const response = await call('GET', `/v1/admin/otaimage?ota_image_id=${id}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ImageList>();
    };
    expect((await byId()).ota_images.map((i) => [i.ota_image_id, i.archived])).toEqual([
      [id, false],
    ]);

    expect(
      (await call('PUT', `/v1/admin/otaimage?ota_image_id=${id}&archive=true`)).statusCode,
    ).toBe(200);
    const archived = await byId();
    expect(archived.total).toBe(1);
    expect(archived.ota_images.map((i) => [i.ota_image_id, i.archived])).toEqual([[id, true]]);

    const list = await call('GET', '/v1/admin/otaimage?num_records=100');
    expect(list.json<ImageList>().ota_images.map((i) => i.ota_image_id)).not.toContain(id);
    const archivedList = await call('GET', '/v1/admin/otaimage?archived=true&num_records=100');
    expect(archivedList.json<ImageList>().ota_images.map((i) => i.ota_image_id)).toContain(id);
  });

  it('finds an archived fault image by id without the archived parameter', async () => {
    const id = (
      await upload(
        { image_name: 'E7 archived fix', type: 'Refrigerator', fault_id: 'E7' },
        imageBytes(12, 9),
      )
    ).json<{ ota_image_id: string }>().ota_image_id;
    expect(
      (await call('PUT', `/v1/admin/otaimage?ota_image_id=${id}&archive=true`)).statusCode,
    ).toBe(200);
    const response = await call('GET', `/v1/admin/otaimage?ota_image_id=${id}&fault_image=true`);
    expect(
      response.json<ImageList>().ota_images.map((i) => [i.ota_image_id, i.fault_id, i.archived]),
    ).toEqual([[id, 'E7', true]]);
  });

  it('marks fault images and filters them apart', async () => {
    await upload({ image_name: 'E5 fix', type: 'Refrigerator', fault_id: 'E5' }, imageBytes(10));
    const faults = await call('GET', '/v1/admin/otaimage?fault_image=true');
    expect(faults.json<ImageList>().ota_images.map((i) => [i.image_name, i.fault_id])).toEqual([
      ['E5 fix', 'E5'],
    ]);
    const plain = await call('GET', '/v1/admin/otaimage?fault_image=false&num_records=100');
    expect(plain.json<ImageList>().ota_images.some((i) => i.fault_id)).toBe(false);
  });
});
