import type { KeyObject } from 'node:crypto';
import {
  OtaStatusPayloadSchema,
  type OtaStatusPayload,
  type OtaUrlPayload,
} from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  digests,
  imageBytes,
  signedOffer,
  signingKeyPair,
  signManifest,
  startImageServer,
  type ImageServer,
  type ServedImage,
} from './image-server.test-support.js';
import { parseSigningKey } from './image-verifier.js';
import {
  OTA_MESSAGES,
  OtaAgent,
  otaSettings,
  type OtaDevice,
  type OtaOptions,
  type OtaSlot,
} from './ota-agent.js';

const TYPE = 'Air Conditioner';
const MODEL = 'AC-Split-12';
const CURRENT = '1.4.2';
const NEXT = '1.5.0';
const SIZE = 300 * 1024;

let server: ImageServer;
const install = signingKeyPair();
const stranger = signingKeyPair();
const original = imageBytes(SIZE);
let paths = 0;

beforeAll(async () => {
  server = await startImageServer();
});
afterAll(async () => {
  await server.close();
});

/** A node that records what it reports and "reboots" by taking the new version. */
class TestDevice implements OtaDevice {
  readonly reports: OtaStatusPayload[] = [];
  readonly reboots: string[] = [];
  slot: OtaSlot | undefined;
  constructor(
    readonly index = 0,
    public fwVersion = CURRENT,
    readonly type = TYPE,
    readonly model = MODEL,
    readonly nodeId = `NODE${index}`,
  ) {}
  /** When set, a report settles when this returns (the broker's PUBACK). */
  acknowledgement: ((status: OtaStatusPayload) => Promise<void> | undefined) | undefined;
  report(status: OtaStatusPayload): Promise<void> | undefined {
    this.reports.push(OtaStatusPayloadSchema.parse(status));
    return this.acknowledgement?.(status);
  }
  reboot(fwVersion: string): void {
    this.reboots.push(fwVersion);
    this.fwVersion = fwVersion;
  }
  get last(): OtaStatusPayload | undefined {
    return this.reports.at(-1);
  }
  get sequence(): string[] {
    return this.reports.map((r) => `${r.status}: ${r.additional_info ?? ''}`);
  }
}

function agent(options: OtaOptions = {}, key: KeyObject = install.publicKey): OtaAgent {
  return new OtaAgent(
    otaSettings({ retryDelayMs: 10, idleTimeoutMs: 2_000, ...options }, parseSigningKey(key), 7),
  );
}

/** Serves `body` at a fresh path and returns its URL. */
function serve(body: Buffer, extra: Omit<ServedImage, 'body'> = {}): string {
  return server.serve(`/blobs/${++paths}.bin`, { body, ...extra });
}

/** A good offer for the original image, served as-is unless `body` says otherwise. */
function goodOffer(body: Buffer = original, extra: Omit<ServedImage, 'body'> = {}): OtaUrlPayload {
  const offer = signedOffer(install.privateKey, original, {
    url: '',
    type: TYPE,
    model: MODEL,
    fw_version: NEXT,
  });
  return { ...offer, url: serve(body, extra) };
}

/** Offers `offer` to a fresh device and waits until the update has run its course. */
async function run(offer: OtaUrlPayload, a = agent(), device = new TestDevice()) {
  const outcome = a.offer(device, JSON.stringify(offer));
  await a.idle();
  if (device.reboots.length > 0) a.booted(device);
  return { outcome, device };
}

const flipped = Buffer.from(original);
flipped[SIZE >> 1] = (flipped[SIZE >> 1] ?? 0) ^ 0x10;
const flippedDigests = digests(flipped);

/**
 * S11: every way an image or offer can be tampered with, each of which must end `failed` or
 * `rejected` with a reason and never reboot the node.
 */
const TAMPER_CLASSES: Array<{
  name: string;
  offer: () => OtaUrlPayload;
  status: 'failed' | 'rejected';
  reason: RegExp;
}> = [
  {
    name: 'a bit flipped in the body',
    offer: () => goodOffer(flipped),
    status: 'failed',
    reason: /^MD5 mismatch$/,
  },
  {
    name: 'a truncated body',
    offer: () => goodOffer(original.subarray(0, SIZE - 1000)),
    status: 'failed',
    reason: /^Image size mismatch: received 306200 bytes, expected 307200$/,
  },
  {
    name: 'extra bytes appended',
    offer: () => goodOffer(Buffer.concat([original, Buffer.from('appended payload')])),
    status: 'failed',
    reason: /^Image size mismatch: more than the expected 307200 bytes$/,
  },
  {
    name: 'a larger file_size in the offer',
    offer: () => ({ ...goodOffer(), file_size: SIZE + 1 }),
    status: 'failed',
    reason: /^Image size mismatch: received 307200 bytes, expected 307201$/,
  },
  {
    name: 'a smaller file_size in the offer',
    offer: () => ({ ...goodOffer(), file_size: SIZE - 1 }),
    status: 'failed',
    reason: /^Image size mismatch: more than the expected 307199 bytes$/,
  },
  {
    name: 'the MD5 of the tampered file with the original SHA-256',
    offer: () => ({ ...goodOffer(flipped), file_md5: flippedDigests.md5 }),
    status: 'failed',
    reason: /^SHA-256 mismatch$/,
  },
  {
    name: 'SHA-256 and MD5 of the tampered file with the original signature',
    offer: () => ({
      ...goodOffer(flipped),
      file_md5: flippedDigests.md5,
      sha256: flippedDigests.sha256,
    }),
    status: 'failed',
    reason: /^Signature invalid$/,
  },
  {
    name: 'a signature made with another key',
    offer: () => {
      const offer = goodOffer();
      return { ...offer, signature: signManifest(stranger.privateKey, offer) };
    },
    status: 'failed',
    reason: /^Signature invalid$/,
  },
  {
    name: 'a signature over another manifest (other fw_version)',
    offer: () => {
      const offer = goodOffer();
      return {
        ...offer,
        signature: signManifest(install.privateKey, { ...offer, fw_version: '1.6.0' }),
      };
    },
    status: 'failed',
    reason: /^Signature invalid$/,
  },
  {
    name: 'an offer whose fw_version was raised after signing',
    offer: () => ({ ...goodOffer(), fw_version: '9.9.9' }),
    status: 'failed',
    reason: /^Signature invalid$/,
  },
  {
    name: 'another image id than the one signed',
    offer: () => ({ ...goodOffer(), ota_image_id: 'img-other' }),
    status: 'failed',
    reason: /^Signature invalid$/,
  },
  {
    name: 'a garbage, non-base64 signature',
    offer: () => ({ ...goodOffer(), signature: 'not*a/signature!' }),
    status: 'failed',
    reason: /^Signature invalid: not base64$/,
  },
  {
    name: 'a cut-short signature',
    offer: () => {
      const offer = goodOffer();
      return {
        ...offer,
        signature: Buffer.from(offer.signature, 'base64').subarray(0, 32).toString('base64'),
      };
    },
    status: 'failed',
    reason: /^Signature invalid: 32 bytes/,
  },
  {
    name: 'an image for another node type (correctly signed)',
    offer: () => {
      const offer = signedOffer(install.privateKey, original, {
        url: serve(original),
        type: 'Refrigerator',
        model: MODEL,
        fw_version: NEXT,
      });
      return offer;
    },
    status: 'rejected',
    reason: /^Image type\/model mismatch$/,
  },
  {
    name: 'an image for another model (correctly signed)',
    offer: () =>
      signedOffer(install.privateKey, original, {
        url: serve(original),
        type: TYPE,
        model: 'AC-Window-09',
        fw_version: NEXT,
      }),
    status: 'rejected',
    reason: /^Image type\/model mismatch$/,
  },
  {
    name: 'the version the node already runs',
    offer: () =>
      signedOffer(install.privateKey, original, {
        url: serve(original),
        type: TYPE,
        model: MODEL,
        fw_version: CURRENT,
      }),
    status: 'rejected',
    reason: /^Same version received$/,
  },
  {
    name: 'a downgrade',
    offer: () =>
      signedOffer(install.privateKey, original, {
        url: serve(original),
        type: TYPE,
        model: MODEL,
        fw_version: '1.4.1',
      }),
    status: 'rejected',
    reason: /^Lower version received$/,
  },
];

describe('OTA integrity (S11): tampered images and offers', () => {
  it('covers at least 12 tamper classes', () => {
    expect(TAMPER_CLASSES.length).toBeGreaterThanOrEqual(12);
  });

  it.each(TAMPER_CLASSES)('refuses $name with a reason', async ({ offer, status, reason }) => {
    const { device } = await run(offer());
    expect(device.last?.status).toBe(status);
    expect(device.last?.additional_info).toMatch(reason);
    expect(device.reports.filter((r) => r.status === 'success')).toHaveLength(0);
    expect(device.reboots).toEqual([]);
    expect(device.fwVersion).toBe(CURRENT);
    expect(device.slot).toBeUndefined();
  });

  it('refuses every tamper class, none slipping through', async () => {
    const results = [];
    for (const tamper of TAMPER_CLASSES) results.push(await run(tamper.offer()));
    const refused = results.filter(
      ({ device }) =>
        ['failed', 'rejected'].includes(device.last?.status ?? '') &&
        (device.last?.additional_info ?? '').length > 0 &&
        device.reboots.length === 0,
    );
    expect(refused.length / results.length).toBe(1);
  });
});

describe('an OTA update', () => {
  it('goes from offer to success in firmware order and boots the new version', async () => {
    const offer = goodOffer();
    const { outcome, device } = await run(offer);
    expect(outcome).toBe('started');
    expect(device.sequence).toEqual([
      `in-progress: ${OTA_MESSAGES.starting}`,
      'in-progress: Downloaded 25% Firmware Image',
      'in-progress: Downloaded 50% Firmware Image',
      'in-progress: Downloaded 75% Firmware Image',
      'in-progress: Downloaded 100% Firmware Image',
      `in-progress: ${OTA_MESSAGES.rebooting}`,
      `success: ${OTA_MESSAGES.success}`,
    ]);
    expect(device.reports.every((r) => r.ota_job_id === offer.ota_job_id)).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    expect(device.reports.every((r) => r.ts !== undefined && Math.abs(r.ts - now) <= 5)).toBe(true);
    expect(device.reboots).toEqual([NEXT]);
    expect(device.slot).toBeUndefined();
  });

  it('resumes with Range after the connection is cut mid-body, and verifies', async () => {
    const offer = goodOffer(original, { cutFirstAfter: 100_000 });
    const path = new URL(offer.url).pathname;
    const { device } = await run(offer);
    const seen = server.requests.filter((r) => r.path === path);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.range).toBeUndefined();
    expect(seen[1]?.range).toBe('bytes=100000-');
    expect(device.sequence).toContain(
      'in-progress: Resuming download at byte 100000 (HTTPS attempt 2/5)',
    );
    expect(device.last?.status).toBe('success');
    expect(device.reboots).toEqual([NEXT]);
  });

  it('starts over when the server ignores Range, and still verifies', async () => {
    const { device } = await run(goodOffer(original, { cutFirstAfter: 50_000, ignoreRange: true }));
    expect(device.last?.status).toBe('success');
  });

  it('fails with the reason when the download cannot complete', async () => {
    const gone = await run(goodOffer(original, { status: 404 }));
    expect(gone.device.last).toMatchObject({
      status: 'failed',
      additional_info: 'Download failed: HTTP 404',
    });
    const flaky = await run(goodOffer(original, { status: 503 }), agent({ downloadAttempts: 2 }));
    expect(flaky.device.last).toMatchObject({
      status: 'failed',
      additional_info: 'Download failed: HTTP 503',
    });
  });

  it('ignores a new offer while one is under way, as firmware does', async () => {
    const a = agent();
    const device = new TestDevice();
    expect(a.offer(device, JSON.stringify(goodOffer()))).toBe('started');
    expect(a.offer(device, JSON.stringify({ ...goodOffer(), ota_job_id: 'job-2' }))).toBe('busy');
    await a.idle();
    a.booted(device);
    expect(new Set(device.reports.map((r) => r.ota_job_id))).toEqual(new Set(['job-1']));
  });

  it('answers an offer that is not a valid otaurl with failed, when it names a job', async () => {
    const device = new TestDevice();
    const a = agent();
    expect(a.offer(device, '{not json')).toBe('invalid');
    expect(
      a.offer(device, JSON.stringify({ ota_job_id: 'j9', url: 'http://x', file_size: 1 })),
    ).toBe('invalid');
    expect(device.reports).toHaveLength(1);
    expect(device.last).toMatchObject({ ota_job_id: 'j9', status: 'failed' });
    expect(device.last?.additional_info).toMatch(/^Aborted\. JSON Payload error \(ota_image_id: /);
  });

  it('is not fooled by a reconnect while it waits to reboot: it still runs the old image', async () => {
    let acknowledge: () => void = () => undefined;
    const a = agent();
    const device = new TestDevice();
    device.acknowledgement = (status) =>
      status.additional_info === OTA_MESSAGES.rebooting
        ? new Promise<void>((resolve) => (acknowledge = resolve))
        : undefined;
    a.offer(device, JSON.stringify(goodOffer()));
    const deadline = Date.now() + 5_000;
    while (device.last?.additional_info !== OTA_MESSAGES.rebooting && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // The connection drops and comes back before the PUBACK: no boot happened.
    a.booted(device);
    expect(device.last?.additional_info).toBe(OTA_MESSAGES.rebooting);
    expect(device.slot).toMatchObject({ phase: 'updating' });
    acknowledge();
    await a.idle();
    expect(device.reboots).toEqual([NEXT]);
    a.booted(device);
    expect(device.sequence.at(-1)).toBe(`success: ${OTA_MESSAGES.success}`);
    expect(device.sequence.filter((line) => line.startsWith('rejected'))).toEqual([]);
  });

  it('reports a rollback when the node comes back on its old version', () => {
    const a = agent();
    const device = new TestDevice();
    device.slot = { jobId: 'job-7', fwVersion: NEXT, phase: 'rebooting' };
    a.booted(device);
    expect(device.last).toMatchObject({
      ota_job_id: 'job-7',
      status: 'rejected',
      additional_info: 'Firmware rolled back',
    });
  });

  it('limits concurrent downloads; waiting nodes still finish', async () => {
    const a = agent({ maxConcurrentDownloads: 1 });
    const devices = [0, 1, 2].map((index) => new TestDevice(index));
    for (const device of devices) a.offer(device, JSON.stringify(goodOffer()));
    await a.idle();
    expect(devices.map((d) => d.reboots)).toEqual([[NEXT], [NEXT], [NEXT]]);
  });

  it('stops mid-download without reporting anything more', async () => {
    const a = agent();
    const device = new TestDevice();
    a.offer(device, JSON.stringify(goodOffer(original, { cutFirstAfter: 10 })));
    await a.stop();
    expect(device.reports.map((r) => r.status)).not.toContain('failed');
    expect(device.slot).toBeUndefined();
  });
});

describe('injected flash failures (--ota-fail-rate)', () => {
  it('fails every good update at rate 1, with a plausible reason', async () => {
    const a = agent({ failRate: 1 });
    for (let index = 0; index < 5; index++) {
      const { device } = await run(goodOffer(), a, new TestDevice(index));
      expect(device.last?.status).toBe('failed');
      expect(device.last?.additional_info).toMatch(/flash|partition/i);
      expect(device.reboots).toEqual([]);
    }
  });

  it('fails none at rate 0', async () => {
    const a = agent({ failRate: 0 });
    for (let index = 0; index < 5; index++) {
      const { device } = await run(goodOffer(), a, new TestDevice(index));
      expect(device.last?.status).toBe('success');
    }
  });

  it('fails the same nodes on every run of a seed', async () => {
    const outcomes = async () => {
      const a = agent({ failRate: 0.5 });
      const statuses: string[] = [];
      for (let index = 0; index < 12; index++) {
        statuses.push((await run(goodOffer(), a, new TestDevice(index))).device.last?.status ?? '');
      }
      return statuses;
    };
    const first = await outcomes();
    expect(await outcomes()).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['success', 'failed']));
  });
});
