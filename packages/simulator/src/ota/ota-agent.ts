import type { KeyObject } from 'node:crypto';
import {
  OtaUrlPayloadSchema,
  type NodeReportedOtaStatus,
  type OtaStatusPayload,
  type OtaUrlPayload,
} from '@fleetdeck/contract';
import { deriveSeed, hashString, Rng } from '../prng.js';
import { compareFirmwareVersions } from './firmware-version.js';
import {
  abortableSleep,
  DownloadError,
  downloadImage,
  type DownloadFetch,
} from './image-download.js';
import { ImageHasher, verifyImage } from './image-verifier.js';

/**
 * How simulated nodes answer OTA offers (`otaurl`), the way ESP RainMaker firmware with rollback
 * does (rainmaker-contract B.5): check the offer, download with resumption, verify size, MD5,
 * SHA-256 and the install's signature, reboot into the new version and report `success` from it.
 * Nothing is allocated for a node until an offer reaches it, so a fleet of thousands stays small.
 */

/** OTA settings of a fleet. All optional: without `publicKey` the fleet fetches the install's key. */
export interface OtaOptions {
  /** The install's signing key (SPKI PEM or key object), as firmware has it built in. */
  publicKey?: string | KeyObject | undefined;
  /** Share (0–1) of otherwise good updates that end `failed` (e.g. "Flash write failed"). Default 0. */
  failRate?: number;
  /** An `in-progress` "Downloaded N% Firmware Image" every this many percent. Default 25. */
  progressStepPercent?: number;
  /** Share (0–1) of nodes that publish `otafetch` after every connect, as firmware does at boot. Default 1. */
  fetchShare?: number;
  /** A node is away this long while it reboots into new firmware, [min, max] ms. Default 2–5 s. */
  rebootDelayMs?: readonly [number, number];
  /** Downloads running at once across the fleet; later ones wait their turn. Default 64. */
  maxConcurrentDownloads?: number;
  /** HTTP requests per download, the first included (the rest resume with Range). Default 5. */
  downloadAttempts?: number;
  /** Wait before resume k is k times this, ms. Default 1000. */
  retryDelayMs?: number;
  /** A download that sends no byte for this long is treated as cut, ms. Default 30 s. */
  idleTimeoutMs?: number;
  /**
   * Each node's download speed (an appliance's Wi-Fi), bytes per second; 0 is as fast as the
   * network goes. Default 0.
   */
  downloadBytesPerSecond?: number;
  /**
   * Share (0–1) of status reports a node publishes a second time a little later (while it stays
   * connected), as a QoS 1 redelivery would, so the cloud sees duplicates out of order. Default 0.
   */
  duplicateShare?: number;
  /** How much later a duplicate follows its report, [min, max] ms. Default 0–3 s. */
  duplicateDelayMs?: readonly [number, number];
  /** HTTP `fetch` for image downloads (tests inject one). Default: global fetch. */
  fetch?: DownloadFetch | undefined;
  /**
   * When the key must be fetched and cannot be: `fail` the start (default, right for tests) or
   * `skip` OTA with one log line (the CLI, against servers without OTA yet).
   */
  whenKeyUnavailable?: 'fail' | 'skip';
}

/** The settings an agent runs with (OtaOptions with defaults and the parsed key). */
export interface OtaSettings {
  publicKey: KeyObject;
  seed: number;
  failRate: number;
  progressStepPercent: number;
  maxConcurrentDownloads: number;
  downloadAttempts: number;
  retryDelayMs: number;
  idleTimeoutMs: number;
  downloadBytesPerSecond: number;
  fetch: DownloadFetch;
}

/** OtaOptions with their defaults, for the parts the agent uses. */
export function otaSettings(options: OtaOptions, publicKey: KeyObject, seed: number): OtaSettings {
  return {
    publicKey,
    seed,
    failRate: options.failRate ?? 0,
    progressStepPercent: options.progressStepPercent ?? 25,
    maxConcurrentDownloads: options.maxConcurrentDownloads ?? 64,
    downloadAttempts: options.downloadAttempts ?? 5,
    retryDelayMs: options.retryDelayMs ?? 1_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
    downloadBytesPerSecond: options.downloadBytesPerSecond ?? 0,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  };
}

/** What a node keeps about an update under way (firmware keeps the job id in NVS). */
export interface OtaSlot {
  jobId: string;
  fwVersion: string;
  phase: 'updating' | 'rebooting';
}

/** One node as the agent sees it. */
export interface OtaDevice {
  readonly nodeId: string;
  /** The node's place in the fleet, which (with the seed) makes its dice reproducible. */
  readonly index: number;
  readonly type: string;
  readonly model: string;
  /** The firmware version the node runs now. */
  readonly fwVersion: string;
  /** The node's OTA slot; undefined when no update is under way. */
  slot: OtaSlot | undefined;
  /**
   * Publishes `otastatus` (QoS 1); lost when the node is offline, as on firmware. May return a
   * promise that settles on PUBACK (it must not reject).
   */
  report(status: OtaStatusPayload): Promise<void> | void;
  /** Reboots into `fwVersion`; the node calls `OtaAgent.booted` once it is connected again. */
  reboot(fwVersion: string): void;
  /** Whether the node's network is up (downloads fail while it is not). Default: always. */
  reachable?(): boolean;
  /** Told the size of every chunk of image the node receives (for counting traffic). */
  received?(bytes: number): void;
}

/** The controls of one node's update under way. */
interface RunningUpdate {
  /** Cuts the request in flight (the network went down); replaced after each cut. */
  cut: AbortController;
  /** Ends the update without a word (the node lost power). */
  off: AbortController;
}

/** What became of an `otaurl` message. */
export type OfferOutcome = 'started' | 'rejected' | 'invalid' | 'busy';

/** The reasons firmware gives for a flash that fails although the image was good. */
const INJECTED_FAILURES = [
  'Flash write failed',
  'OTA partition erase failed',
  'Image header check failed after flash write',
] as const;
const FAIL_STREAM = 0x07af;
const REBOOT_REPORT_WAIT_MS = 2_000;

export const OTA_MESSAGES = {
  starting: 'Starting OTA Upgrade',
  progress: (percent: number) => `Downloaded ${percent}% Firmware Image`,
  resuming: (offset: number, attempt: number, attempts: number) =>
    `Resuming download at byte ${offset} (HTTPS attempt ${attempt}/${attempts})`,
  rebooting: 'Rebooting into new firmware',
  success: 'OTA Upgrade finished and verified successfully',
  mismatch: 'Image type/model mismatch',
  same: 'Same version received',
  lower: 'Lower version received',
  rolledBack: 'Firmware rolled back',
  badOffer: 'Aborted. JSON Payload error',
} as const;

/** Runs the OTA side of every node of a fleet. */
export class OtaAgent {
  private readonly tasks = new Set<Promise<void>>();
  /** The updates under way, by node id. */
  private readonly updates = new Map<string, RunningUpdate>();
  private readonly waiting: Array<() => void> = [];
  private downloads = 0;
  private stopped = false;
  /** Cuts every download when the fleet stops. */
  private readonly halt = new AbortController();

  constructor(private readonly settings: OtaSettings) {}

  /** Handles one `otaurl` message for `device`. */
  offer(device: OtaDevice, payload: Buffer | string): OfferOutcome {
    // Firmware ignores offers while an update (or its reboot) is under way.
    if (device.slot || this.stopped) return 'busy';
    let json: unknown;
    try {
      json = JSON.parse(payload.toString());
    } catch {
      return 'invalid';
    }
    const parsed = OtaUrlPayloadSchema.safeParse(json);
    if (!parsed.success) {
      const jobId = jobIdOf(json);
      const issue = parsed.error.issues[0];
      if (jobId) {
        report(
          device,
          jobId,
          'failed',
          `${OTA_MESSAGES.badOffer} (${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'})`,
        );
      }
      return 'invalid';
    }
    const offer = parsed.data;
    if (offer.type !== device.type || offer.model !== device.model) {
      report(device, offer.ota_job_id, 'rejected', OTA_MESSAGES.mismatch);
      return 'rejected';
    }
    const order = compareFirmwareVersions(offer.fw_version, device.fwVersion);
    if (order <= 0) {
      report(
        device,
        offer.ota_job_id,
        'rejected',
        order === 0 ? OTA_MESSAGES.same : OTA_MESSAGES.lower,
      );
      return 'rejected';
    }
    const slot: OtaSlot = {
      jobId: offer.ota_job_id,
      fwVersion: offer.fw_version,
      phase: 'updating',
    };
    device.slot = slot;
    const task = this.update(device, offer, slot).finally(() => this.tasks.delete(task));
    this.tasks.add(task);
    return 'started';
  }

  /** Called when a node is connected (and subscribed) again: reports the outcome of a reboot. */
  booted(device: OtaDevice): void {
    const slot = device.slot;
    if (slot?.phase !== 'rebooting') return;
    // The job id survived the reboot (NVS); the slot is free once the outcome is out.
    device.slot = undefined;
    if (compareFirmwareVersions(device.fwVersion, slot.fwVersion) === 0) {
      report(device, slot.jobId, 'success', OTA_MESSAGES.success);
    } else {
      report(device, slot.jobId, 'rejected', OTA_MESSAGES.rolledBack);
    }
  }

  /**
   * The node's network went down: its download request in flight is cut (the download resumes,
   * or fails once its attempts are spent, while `reachable()` says no).
   */
  networkDown(nodeId: string): void {
    const update = this.updates.get(nodeId);
    if (!update) return;
    update.cut.abort(new Error('network unreachable'));
    update.cut = new AbortController();
  }

  /**
   * The node lost power: a download under way is lost with what it received, and nothing is
   * reported for it (the node asks for the update again after it boots). An image already
   * flashed (rebooting) still boots.
   */
  powerOff(nodeId: string): void {
    this.updates.get(nodeId)?.off.abort(new Error('power lost'));
  }

  /** Updates under way (downloading or verifying). */
  get running(): number {
    return this.tasks.size;
  }

  /** Resolves when no update is downloading or verifying. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /** Cuts every download; no status is reported for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halt.abort(new Error('the fleet is stopping'));
    for (const release of this.waiting.splice(0)) release();
    await this.idle();
  }

  private async update(device: OtaDevice, offer: OtaUrlPayload, slot: OtaSlot): Promise<void> {
    const controls: RunningUpdate = { cut: new AbortController(), off: new AbortController() };
    this.updates.set(device.nodeId, controls);
    try {
      await this.runUpdate(device, offer, slot, controls);
    } finally {
      if (this.updates.get(device.nodeId) === controls) this.updates.delete(device.nodeId);
    }
  }

  /** The fetch of one node's download: through its network, at its speed. */
  private nodeFetch(device: OtaDevice, controls: RunningUpdate): DownloadFetch {
    const rate = this.settings.downloadBytesPerSecond;
    return async (input, init) => {
      if (device.reachable?.() === false) {
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('network unreachable'), { code: 'ENETUNREACH' }),
        });
      }
      const signal = init.signal
        ? AbortSignal.any([init.signal, controls.cut.signal])
        : controls.cut.signal;
      const response = await this.settings.fetch(input, { ...init, signal });
      return rate > 0 ? throttled(response, rate, signal) : response;
    };
  }

  private async runUpdate(
    device: OtaDevice,
    offer: OtaUrlPayload,
    slot: OtaSlot,
    controls: RunningUpdate,
  ): Promise<void> {
    const signal = AbortSignal.any([this.halt.signal, controls.off.signal]);
    const jobId = offer.ota_job_id;
    const fail = (reason: string) => {
      device.slot = undefined;
      report(device, jobId, 'failed', reason);
    };
    report(device, jobId, 'in-progress', OTA_MESSAGES.starting);
    const hasher = new ImageHasher();
    const { progressStepPercent: step, downloadAttempts } = this.settings;
    let nextProgress = step;
    let result;
    await this.acquire();
    try {
      result = await downloadImage({
        url: offer.url,
        expectedSize: offer.file_size,
        fetch: this.nodeFetch(device, controls),
        signal,
        maxAttempts: downloadAttempts,
        retryDelayMs: this.settings.retryDelayMs,
        idleTimeoutMs: this.settings.idleTimeoutMs,
        onData: (chunk) => {
          device.received?.(chunk.length);
          hasher.update(chunk);
          const percent =
            offer.file_size === 0 ? 100 : Math.floor((hasher.size * 100) / offer.file_size);
          while (step > 0 && nextProgress <= 100 && percent >= nextProgress) {
            report(device, jobId, 'in-progress', OTA_MESSAGES.progress(nextProgress));
            nextProgress += step;
          }
        },
        onRestart: () => hasher.reset(),
        onResume: (offset, attempt) =>
          report(
            device,
            jobId,
            'in-progress',
            OTA_MESSAGES.resuming(offset, attempt, downloadAttempts),
          ),
      });
    } catch (error) {
      if (error instanceof DownloadError) fail(error.message);
      // Otherwise the node (or the fleet) is switched off mid-download and says nothing.
      else if (device.slot === slot) device.slot = undefined;
      return;
    } finally {
      this.release();
    }
    if (result.oversize) {
      fail(`Image size mismatch: more than the expected ${offer.file_size} bytes`);
      return;
    }
    const verdict = verifyImage(offer, hasher.digest(), this.settings.publicKey);
    if (!verdict.ok) {
      fail(verdict.reason);
      return;
    }
    const injected = this.injectedFailure(device, jobId);
    if (injected) {
      fail(injected);
      return;
    }
    // Firmware restarts once the broker has the status (or soon after, if it never answers). Till
    // then it runs the old image: a reconnect in the meantime is no boot (`booted` ignores it).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      reportAcked(device, jobId, 'in-progress', OTA_MESSAGES.rebooting),
      new Promise((resolve) => (timer = setTimeout(resolve, REBOOT_REPORT_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (this.stopped) {
      device.slot = undefined;
      return;
    }
    slot.phase = 'rebooting';
    device.reboot(offer.fw_version);
  }

  /** Whether this node's update of this job fails anyway: the same on every run of a seed. */
  private injectedFailure(device: OtaDevice, jobId: string): string | undefined {
    if (this.settings.failRate <= 0) return undefined;
    const rng = new Rng(
      deriveSeed(this.settings.seed, FAIL_STREAM, device.index, hashString(jobId)),
    );
    return rng.chance(this.settings.failRate) ? rng.pick(INJECTED_FAILURES) : undefined;
  }

  private acquire(): Promise<void> {
    if (this.downloads < this.settings.maxConcurrentDownloads || this.stopped) {
      this.downloads++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(() => {
        this.downloads++;
        resolve();
      });
    });
  }

  private release(): void {
    this.downloads--;
    this.waiting.shift()?.();
  }
}

/** Reports a status without waiting for the broker. */
function report(
  device: OtaDevice,
  jobId: string,
  status: NodeReportedOtaStatus,
  additionalInfo: string,
): void {
  void reportAcked(device, jobId, status, additionalInfo);
}

/** Reports a status; settles on PUBACK (at once for devices that do not say). */
async function reportAcked(
  device: OtaDevice,
  jobId: string,
  status: NodeReportedOtaStatus,
  additionalInfo: string,
): Promise<void> {
  await device.report({
    ota_job_id: jobId,
    status,
    additional_info: additionalInfo,
    ts: Math.floor(Date.now() / 1000),
  });
}

/**
 * The response with its body passed on no faster than `bytesPerSecond`: each chunk waits until
 * the bytes so far are due. Aborting `signal` cuts the body, as a dropped connection would.
 */
function throttled(response: Response, bytesPerSecond: number, signal: AbortSignal): Response {
  const source = response.body;
  if (!source) return response;
  const reader: ReadableStreamDefaultReader<Uint8Array> = source.getReader();
  const started = Date.now();
  let passed = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      passed += value.length;
      const wait = started + (passed * 1000) / bytesPerSecond - Date.now();
      if (wait > 0) await abortableSleep(wait, signal);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function jobIdOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || !('ota_job_id' in json)) return undefined;
  const jobId = json.ota_job_id;
  return typeof jobId === 'string' && jobId.length > 0 ? jobId : undefined;
}
