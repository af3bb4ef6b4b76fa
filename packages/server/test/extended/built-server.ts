import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../src/runtime-flags.js';

/**
 * The built server (`packages/server/dist/main.js`) as its own process, for the tier-B tests that
 * watch it from outside: its memory, its open files, whether it survives. Started with the Node
 * flags `npm start` gives it, on free ports, on SQLite in the given data directory.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const SERVER_ENTRY = path.join(ROOT, 'packages/server/dist/main.js');

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface BuiltServer {
  child: ChildProcess;
  pid: number;
  url: string;
  mqttUrl: string;
  /** What the server wrote to stdout and stderr so far (the last `outputLimit` characters). */
  output: () => string;
  /** Fails the test (with the server's output) unless the process still runs. */
  expectAlive: () => void;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** SIGKILL unless it has ended already; waits for the exit. */
  kill: () => Promise<void>;
  /** SIGTERM, SIGKILL after `graceMs`, unless it has ended already; waits for the exit. */
  stop: (graceMs?: number) => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Retries `attempt` every 200 ms until it returns true; resolves with the time it took. */
export async function within(ms: number, attempt: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await attempt()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts the built server with a first super admin and waits until it is ready. */
export async function startBuiltServer(options: {
  dataDir: string;
  admin: { user_name: string; password: string };
  env?: Record<string, string>;
  /** Keep only this much of the output, so a long run does not grow the test's memory. */
  outputLimit?: number;
}): Promise<BuiltServer> {
  const outputLimit = options.outputLimit ?? Number.POSITIVE_INFINITY;
  if (!fs.existsSync(SERVER_ENTRY))
    throw new Error('The server is not built: run `npm run build`.');
  const port = await freePort();
  const mqttPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: options.dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      FLEETDECK_ADMIN_EMAIL: options.admin.user_name,
      FLEETDECK_ADMIN_PASSWORD: options.admin.password,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > outputLimit) output = output.slice(-outputLimit);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const expectAlive = () => {
    expect(child.exitCode, output).toBeNull();
    expect(child.signalCode, output).toBeNull();
  };
  await within(30_000, async () => {
    expectAlive();
    return fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
  });
  return {
    child,
    pid: child.pid!,
    url,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    output: () => output,
    expectAlive,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    stop: async (graceMs = 25_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One JSON call to `baseUrl`, with a raw access token when given. */
export async function callApi(
  baseUrl: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string | null,
): Promise<Answer> {
  const response = await fetch(url.startsWith('http') ? url : `${baseUrl}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}
