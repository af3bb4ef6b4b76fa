/**
 * A firmware-style image download: one streamed HTTP GET of an opaque URL that, when the connection
 * is cut, resumes with `Range: bytes=<received>-` a few times (HTTP OTA resumption, B.5). Chunks go
 * straight to `onData` (a hasher), so memory use does not depend on the image size.
 */

/** The `fetch` a download uses (injectable for tests). */
export type DownloadFetch = (input: string, init: RequestInit) => Promise<Response>;

/** How to download one image. */
export interface ImageDownloadOptions {
  url: string;
  /** The size the offer announced; more bytes than this end the download at once. */
  expectedSize: number;
  fetch: DownloadFetch;
  /** Aborts everything (the fleet is stopping). */
  signal: AbortSignal;
  /** Requests in all, the first included. */
  maxAttempts: number;
  /** Wait before attempt k+1 is k times this. */
  retryDelayMs: number;
  /** A stalled response (no byte for this long) counts as a cut connection. */
  idleTimeoutMs: number;
  /** The next bytes of the image, in order. */
  onData(chunk: Uint8Array): void;
  /** The server ignored Range and sends the image from byte 0 again: forget what was received. */
  onRestart(): void;
  /** Attempt `attempt` is about to resume at byte `offset`. */
  onResume?(offset: number, attempt: number): void;
}

/** How a download ended when it did not fail. */
export interface DownloadResult {
  /** Bytes passed to onData (after the last restart). */
  bytes: number;
  attempts: number;
  /** The server sent more than `expectedSize` bytes; the download stopped there. */
  oversize: boolean;
}

/** The image could not be downloaded; the message is the reason a node reports. */
export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** Downloads `url`, resuming after cut connections; throws DownloadError (or the abort reason). */
export async function downloadImage(options: ImageDownloadOptions): Promise<DownloadResult> {
  const { signal } = options;
  let received = 0;
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted();
    if (attempt > 1) {
      await abortableSleep(options.retryDelayMs * (attempt - 1), signal);
      options.onResume?.(received, attempt);
    }
    const last = attempt >= options.maxAttempts;
    const request = new AbortController();
    const requestSignal = AbortSignal.any([signal, request.signal]);
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => request.abort(new Error('stalled')), options.idleTimeoutMs);
    };
    armIdle();
    try {
      let response: Response;
      try {
        response = await options.fetch(options.url, {
          method: 'GET',
          headers: received > 0 ? { range: `bytes=${received}-` } : {},
          signal: requestSignal,
        });
      } catch (error) {
        signal.throwIfAborted();
        if (last) throw new DownloadError(`Download failed: ${describe(error)}`);
        continue;
      }

      if (received > 0 && response.status === 206) {
        const start = contentRangeStart(response.headers.get('content-range'));
        if (start !== received) {
          await response.body?.cancel().catch(() => undefined);
          throw new DownloadError(
            `Download failed: asked to resume at byte ${received}, server sent ${response.headers.get('content-range') ?? 'no Content-Range'}`,
          );
        }
      } else if (response.status === 200) {
        if (received > 0) {
          options.onRestart();
          received = 0;
        }
      } else {
        await response.body?.cancel().catch(() => undefined);
        // 5xx may pass; 4xx (expired or forged URL, gone image) will not.
        if (response.status >= 500 && !last) continue;
        throw new DownloadError(`Download failed: HTTP ${response.status}`);
      }

      if (!response.body) return { bytes: received, attempts: attempt, oversize: false };
      const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { bytes: received, attempts: attempt, oversize: false };
          armIdle();
          options.onData(value);
          received += value.length;
          if (received > options.expectedSize) {
            await reader.cancel().catch(() => undefined);
            return { bytes: received, attempts: attempt, oversize: true };
          }
        }
      } catch (error) {
        signal.throwIfAborted();
        if (last) {
          throw new DownloadError(
            `Download interrupted after ${received} of ${options.expectedSize} bytes (${attempt} attempts): ${describe(error)}`,
          );
        }
      }
    } finally {
      clearTimeout(idle);
    }
  }
}

/** The first byte of `Content-Range: bytes <start>-<end>/<size>`. */
function contentRangeStart(header: string | null): number | undefined {
  const match = header ? /^bytes\s+(\d+)-\d+\/(?:\d+|\*)$/i.exec(header.trim()) : null;
  return match?.[1] ? Number(match[1]) : undefined;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch() says "fetch failed" or "terminated"; the socket's reason is the cause.
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `${error.message} (${typeof code === 'string' ? code : cause.message})`;
  }
  return error.message;
}

/** Waits `ms`; rejects with the abort reason as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
