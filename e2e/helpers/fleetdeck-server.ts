import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_ENTRY = path.join(ROOT, 'packages/server/dist/main.js');

export const E2E_ADMIN_EMAIL = 'operator@fleetdeck.test';
export const E2E_ADMIN_PASSWORD = 'Harbor-Console-2031';

/** A port the OS says is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  /** HTTP port. */
  port: number;
  /** The server process (a test may signal it). */
  pid: number;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  /** Ends the process and removes its data directory. */
  stop: () => Promise<void>;
  /** Sends `signal` and waits until the process has exited; the data directory stays. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

/** Where a server runs: a restart passes the same directory and ports again. */
export interface ServerPlace {
  dataDir?: string;
  port?: number;
  /** The embedded broker's port (default: a free one the server picks). */
  mqttPort?: number;
}

/**
 * Starts the built server (`packages/server/dist/main.js`) as its own process on free ports with a
 * fresh data directory (or the given ones, to restart a server), and waits until it is ready.
 * `stop` ends only that process.
 */
export async function startServer(
  env: Record<string, string> = {},
  place: ServerPlace = {},
): Promise<RunningServer> {
  if (!fs.existsSync(SERVER_ENTRY))
    throw new Error('The server is not built: run `npm run build` first.');
  const port = place.port ?? (await freePort());
  const dataDir = place.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(place.mqttPort ?? 0),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      FLEETDECK_ADMIN_EMAIL: E2E_ADMIN_EMAIL,
      FLEETDECK_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
  };
  return {
    url,
    dataDir,
    port,
    pid: child.pid!,
    exited,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    kill,
  };
}

/** Signs in as an API client (raw token), for steering the server from a test. */
export async function apiToken(
  url: string,
  userName = E2E_ADMIN_EMAIL,
  password = E2E_ADMIN_PASSWORD,
): Promise<string> {
  const response = await fetch(`${url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_name: userName, password }),
  });
  if (!response.ok)
    throw new Error(`API login failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { accesstoken: string };
  return body.accesstoken;
}

/**
 * Calls the API of the server at `baseUrl` with a raw token and a JSON body; resolves with the
 * parsed answer, throws with the status and body unless it is 2xx.
 */
export async function apiJson<T>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Every row of a paged list (`start_id` / `next_id`) of the server at `baseUrl`, 100 at a time. */
export async function allPages<Page extends { next_id?: string | undefined }, Row>(
  baseUrl: string,
  token: string,
  url: string,
  rows: (page: Page) => Row[],
): Promise<Row[]> {
  const all: Row[] = [];
  let cursor: string | undefined;
  do {
    const start = cursor ? `&start_id=${encodeURIComponent(cursor)}` : '';
    const page = await apiJson<Page>(baseUrl, token, 'GET', `${url}&num_records=100${start}`);
    all.push(...rows(page));
    cursor = page.next_id;
  } while (cursor);
  return all;
}
